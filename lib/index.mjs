// The runtime entry of the package: the kit ships TypeScript, loaded here through tsx's
// namespaced loader (it does not change how the host process loads anything else). The names
// below are index.ts's runtime exports; test/library/package-entry.test.ts keeps them equal.
import { tsImport } from 'tsx/esm/api';

const kit = await tsImport('../index.ts', import.meta.url);

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
