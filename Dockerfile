# The exchange-api-kit mock server as a container (also runs `generate` and `conformance`):
#   docker build -t exchange-api-kit .
#   docker run --rm -p 4010:4010 -e MOCK_SEED=42 exchange-api-kit
#   docker run --rm --network host exchange-api-kit conformance --base-url http://localhost:4010 --sandbox
# Production dependencies only; the command line is bundled into dist/ at build time (esbuild,
# which tsx brings) so the container starts in plain Node; files owned by root and read-only to
# the unprivileged `node` user that runs the server.
FROM node:20-alpine

ENV NODE_ENV=production
WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

COPY bin ./bin
COPY cli ./cli
COPY lib ./lib
COPY index.ts ./
COPY contracts ./contracts
COPY generated ./generated
COPY generator ./generator
COPY templates ./templates
COPY mock-server ./mock-server
COPY conformance ./conformance
COPY scripts ./scripts
# `npm ci --ignore-scripts` skipped the `prepare` build; run it here.
RUN node scripts/build-dist.mjs

USER node

# serve reads its options from the environment too (see `serve --help`); in a container it must
# listen on every interface.
ENV HOST=0.0.0.0 PORT=4010
EXPOSE 4010
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/api/v3/ping').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"

ENTRYPOINT ["node", "bin/exchange-api-kit.mjs"]
CMD ["serve"]
