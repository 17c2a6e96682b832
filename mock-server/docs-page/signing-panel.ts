// The panel above the deposit v1 reference that makes its "Try it out" work: every request the
// page sends is signed by the mock's control API (signDepositRequest) as the default site, or as
// the site whose credentials are typed here (assets/try-it-out-signing.js does it in the page).
// Without the control API nothing can sign, and the panel says so.
import { escapeHtml } from './html.js';

/** Where the page asks for signatures and which header carries the admin token. */
export interface TryItOutSigning {
  /** The URL path of signDepositRequest. */
  path: string;
  adminTokenHeader: string;
}

export function signingPanel(signing: TryItOutSigning | null): string {
  if (signing === null) {
    return `    <section class="signing" aria-labelledby="signing-heading">
      <h2 id="signing-heading">Signing “Try it out”</h2>
      <p>This mock serves no control API, so it cannot sign the requests sent from this page: add the signature headers yourself.</p>
    </section>`;
  }
  return `    <section class="signing" aria-labelledby="signing-heading" data-sign-url="${escapeHtml(signing.path)}" data-admin-token-header="${escapeHtml(signing.adminTokenHeader)}">
      <h2 id="signing-heading">Signing “Try it out”</h2>
      <p>The mock signs every request sent from this page (key, timestamp on its virtual clock, signature), as its default site unless you give a site's credentials here. They stay in this tab.</p>
      <form id="signing-form" class="signing-form">
        <label for="signing-key">API key</label>
        <input id="signing-key" name="apiKey" autocomplete="off" placeholder="the default site's">
        <label for="signing-secret">API secret</label>
        <input id="signing-secret" name="apiSecret" type="password" autocomplete="off" placeholder="the site's, when the key is not this mock's">
        <label for="signing-admin-token">Admin token</label>
        <input id="signing-admin-token" name="adminToken" type="password" autocomplete="off" placeholder="only when the mock has one">
        <span class="signing-actions"><button type="submit">Sign with these</button> <button type="button" id="signing-default">Sign as the default site</button></span>
      </form>
      <p id="signing-status" role="status" aria-live="polite"></p>
    </section>`;
}
