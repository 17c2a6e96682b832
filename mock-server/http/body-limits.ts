// Each family's limits on a request body, read from its contract's info: the most bytes
// (x-body-limit-bytes, 413 beyond) and the deepest nesting of a JSON body (x-json-depth-limit,
// 400 beyond). A control operation may declare its own (importSandboxState: a whole sandbox).
import { depositV1Info } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import { sandboxControlInfo } from '../../generated/sandbox-control/contract-data.js';
import { operationExtension } from '../bundled-contracts.js';

/** What a route's body may be: its bytes at most, and how deep a JSON body's arrays and objects nest. */
export interface BodyLimits {
  bytes: number;
  jsonDepth: number;
}

export const v3BodyLimits: BodyLimits = { bytes: exchangeV3Info['x-body-limit-bytes'], jsonDepth: exchangeV3Info['x-json-depth-limit'] };
export const v1BodyLimits: BodyLimits = { bytes: depositV1Info['x-body-limit-bytes'], jsonDepth: depositV1Info['x-json-depth-limit'] };

export function controlBodyLimits(operationId: string): BodyLimits {
  const own = (extension: string) => operationExtension('sandbox-control', operationId, extension) as number | undefined;
  return {
    bytes: own('x-body-limit-bytes') ?? sandboxControlInfo['x-body-limit-bytes'],
    jsonDepth: own('x-json-depth-limit') ?? sandboxControlInfo['x-json-depth-limit'],
  };
}
