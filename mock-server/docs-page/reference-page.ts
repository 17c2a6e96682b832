// The API reference of one contract: Swagger UI (from swagger-ui-dist, served under
// /docs/assets) reading the contract from /docs/specs/<contract>.json. The deposit v1 page adds
// the panel that signs its "Try it out" requests.
import type { BundledContract } from '../bundled-contracts.js';
import { escapeHtml, page } from './html.js';
import { signingPanel, type TryItOutSigning } from './signing-panel.js';
import { titleOf } from './specs.js';

/** The contract whose operations are signed by the caller's site. */
const signedContract: BundledContract = 'deposit-v1';

export function referencePage(base: string, contract: BundledContract, signing: TryItOutSigning | null): string {
  const specUrl = `${base}/specs/${contract}.json`;
  const signed = contract === signedContract;
  const body = `${signed ? `${signingPanel(signing)}\n` : ''}    <div id="swagger-ui" data-spec-url="${escapeHtml(specUrl)}"></div>`;
  return page(base, titleOf(contract), body, {
    head: `<link rel="stylesheet" href="${base}/assets/swagger-ui.css">`,
    scripts: `<script src="${base}/assets/swagger-ui-bundle.js"></script>
  ${signed ? `<script src="${base}/assets/try-it-out-signing.js"></script>\n  ` : ''}<script src="${base}/assets/swagger-init.js"></script>`,
  });
}
