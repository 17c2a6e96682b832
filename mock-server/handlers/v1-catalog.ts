// The v1 catalog operations: listNetworks (the enabled networks) and listAssets (the assets that
// take deposits or payouts on an enabled network), from the static deposit catalog.
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import { listedAssets, publicAsset } from '../domain/deposits/assets.js';
import { enabledNetworks, publicNetwork } from '../domain/deposits/networks.js';
import { v1Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

export function catalogHandlers(sandbox: Sandbox): Pick<DepositV1Handlers, 'listAssets' | 'listNetworks'> {
  return {
    listAssets: (_request, context) => v1Success('listAssets', context, sandbox.clock, 200, listedAssets().map(publicAsset)),
    listNetworks: (_request, context) => v1Success('listNetworks', context, sandbox.clock, 200, enabledNetworks().map(publicNetwork)),
  };
}
