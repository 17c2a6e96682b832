# The exchange-api-kit mock server as a container (also runs `generate --out` and `conformance`):
#   docker build -t exchange-api-kit .
#   docker run --rm -p 4010:4010 -e MOCK_SEED=42 exchange-api-kit
#   docker run --rm --network host exchange-api-kit conformance --base-url http://localhost:4010 --sandbox
# The image holds the kit as npm installs it for an integrator: the build stage compiles dist/
# and packs it, the runtime stage installs that tarball with its runtime dependencies only (no
# install script runs: none of them needs one), no TypeScript and no loader; files owned by root
# and read-only to the unprivileged `node` user that runs the server.
FROM node:20-alpine AS build
WORKDIR /kit
COPY . .
# No install scripts: building needs none (better-sqlite3's native addon is for the sqlite: engine's
# tests, and the image has no compiler); the build runs once, explicitly, before the pack.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm run build \
  && mkdir /packed && npm pack --ignore-scripts --pack-destination /packed

FROM node:20-alpine
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /packed /packed
RUN echo '{"name":"mock","private":true}' > package.json \
  && npm install --omit=dev --ignore-scripts --no-audit --no-fund /packed/*.tgz \
  && rm -rf /packed && npm cache clean --force

USER node

# serve reads its options from the environment too (see `serve --help`); in a container it must
# listen on every interface.
ENV HOST=0.0.0.0 PORT=4010
EXPOSE 4010
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/api/v3/ping').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"

ENTRYPOINT ["node", "node_modules/exchange-api-kit/bin/exchange-api-kit.mjs"]
CMD ["serve"]
