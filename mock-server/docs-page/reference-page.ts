// The API reference of one contract: Swagger UI (from swagger-ui-dist, served under
// /docs/assets) reading the contract from /docs/specs/<contract>.json.
import type { BundledContract } from '../bundled-contracts.js';
import { escapeHtml, page } from './html.js';
import { titleOf } from './specs.js';

export function referencePage(base: string, contract: BundledContract): string {
  const specUrl = `${base}/specs/${contract}.json`;
  return page(base, titleOf(contract), `    <div id="swagger-ui" data-spec-url="${escapeHtml(specUrl)}"></div>`, {
    head: `<link rel="stylesheet" href="${base}/assets/swagger-ui.css">`,
    scripts: `<script src="${base}/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/assets/swagger-init.js"></script>`,
  });
}
