// The runtime entry of the package: the bundle in dist/ when it is fresh (lib/launch.mjs), else
// the kit's TypeScript through tsx's namespaced loader (it does not change how the host process
// loads anything else). The names below are index.ts's runtime exports;
// test/library/package-entry.test.ts keeps them equal.
import { importEntry } from './launch.mjs';

const kit = await importEntry('index', async () => {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport('../index.ts', import.meta.url);
});

export const {
  startMockServer,
  mockClients,
  ExchangeV3Client,
  exchangeV3SignatureScheme,
  DepositV1Client,
  depositV1SignatureScheme,
  SandboxControlClient,
  ApiError,
  createHmacSigner,
  verifyWebhookSignature,
} = kit;
