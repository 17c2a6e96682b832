// /docs over HTTP: the API reference pages of the three contracts, their assets (from
// swagger-ui-dist, served by the mock), the contracts as JSON pointing "Try it out" at this
// mock, the state machines and the assumptions; nothing on these pages comes from elsewhere. The
// deposit v1 page carries the panel that signs its "Try it out" through the control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectAssumptions } from '../../generator/assumptions.js';
import { machines } from '../../generated/machines.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { contractsDir } from '../support/contracts.js';

const contracts = ['exchange-v3', 'deposit-v1', 'sandbox-control'];

let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

async function html(path: string): Promise<string> {
  const response = await fetch(`${mock.url}${path}`);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  return response.text();
}

/** Every src and href of a page. */
function references(page: string): string[] {
  return [...page.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
}

describe('/docs', () => {
  it('redirects to the v3 reference', async () => {
    const response = await fetch(`${mock.url}/docs`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs/exchange-v3');
  });

  // The reference's "Try it out" acts with the admin token the inspector shares: no script but the
  // mock's may run there, and no page of another origin may frame it.
  it.each(['/docs/deposit-v1', '/docs/machines', '/docs/assumptions', '/docs/assets/swagger-init.js'])('%s runs only the mock\'s scripts and cannot be framed', async (path) => {
    const response = await fetch(`${mock.url}${path}`);
    expect(response.status).toBe(200);
    const policy = (response.headers.get('content-security-policy') ?? '').split(/;\s*/);
    expect(policy).toEqual(expect.arrayContaining(["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]));
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each(contracts)('the %s reference page loads Swagger UI and the contract from this mock only', async (contract) => {
    const page = await html(`/docs/${contract}`);
    expect(page).toContain(`data-spec-url="/docs/specs/${contract}.json"`);
    expect(page).not.toMatch(/https?:\/\//);
    const refs = references(page);
    expect(refs).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/assets/swagger-init.js']));
    for (const ref of refs) {
      expect(ref).toMatch(/^\/docs\//);
      expect((await fetch(`${mock.url}${ref}`)).status, ref).toBe(200);
    }
  });

  it('our own assets name no other host, and Swagger UI is told not to call its online validator', async () => {
    for (const asset of ['docs.css', 'swagger-init.js', 'try-it-out-signing.js']) {
      expect(await (await fetch(`${mock.url}/docs/assets/${asset}`)).text()).not.toMatch(/https?:\/\//);
    }
    expect(await (await fetch(`${mock.url}/docs/assets/swagger-init.js`)).text()).toContain('validatorUrl: null');
  });

  it('serves only the assets the pages use (not swagger-ui-dist’s demo page)', async () => {
    for (const file of ['index.html', 'swagger-initializer.js', '..%2Fpackage.json']) {
      expect((await fetch(`${mock.url}/docs/assets/${file}`)).status, file).toBe(404);
    }
  });

  it('serves each contract as JSON whose base_url is this mock', async () => {
    const spec = (await (await fetch(`${mock.url}/docs/specs/exchange-v3.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string }>>;
      servers: { variables: { base_url: { default: string } } }[];
    };
    expect(spec.openapi).toMatch(/^3\.1/);
    expect(spec.servers[0]?.variables.base_url.default).toBe(mock.url);
    const operationIds = Object.values(spec.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    for (const route of exchangeV3Routes) expect(operationIds).toContain(route.operationId);
    for (const contract of contracts.slice(1)) expect((await fetch(`${mock.url}/docs/specs/${contract}.json`)).status).toBe(200);
    expect((await fetch(`${mock.url}/docs/specs/nope.json`)).status).toBe(404);
  });

  it('the state machines page has every machine, its diagram and every transition', async () => {
    const page = await html('/docs/machines');
    expect(page).not.toMatch(/https?:\/\//);
    for (const [key, machine] of Object.entries(machines)) {
      expect(page).toContain(`id="${key}"`);
      expect(page).toContain(machine.title);
      // The Graphviz diagram: one node per state, one edge per transition.
      const section = page.slice(page.indexOf(`id="${key}"`));
      const svg = section.slice(section.indexOf('<svg'), section.indexOf('</svg>'));
      expect(svg.match(/class="node"/g)).toHaveLength(machine.states.length);
      expect(svg.match(/class="edge"/g)).toHaveLength(machine.transitions.length);
      // Each arrow says what fires it, who fires it and the webhook it emits.
      const edgeLabels = svg.split('class="edge"').slice(1).map((edge) => [...edge.slice(0, edge.indexOf('</g>')).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => decodeEntities(m[1]!)));
      for (const transition of machine.transitions) {
        const trigger = transition.guard === null ? transition.event : `${transition.event} [${transition.guard}]`;
        const wanted = [trigger, `by ${transition.actor}`, ...(transition.emits === null ? [] : [`→ ${transition.emits}`])];
        expect(edgeLabels, `${key}: ${transition.from} --${transition.event}--> ${transition.to}`).toContainEqual(wanted);
      }
      for (const transition of machine.transitions) {
        expect(page).toContain(`<td><code>${transition.from}</code></td><td><code>${transition.event}</code></td><td><code>${transition.to}</code></td>`);
      }
    }
  });

  it('the assumptions page lists every assumption of the contracts', async () => {
    const page = await html('/docs/assumptions');
    const assumptions = collectAssumptions(contractsDir);
    expect(page).toContain(`${assumptions.length} places`);
    expect(page.match(/<li><code>/g)).toHaveLength(assumptions.length);
  });

  it("the deposit v1 page signs its Try it out through the control API's signDepositRequest, or says it cannot", async () => {
    const page = await html('/docs/deposit-v1');
    const signRoute = sandboxControlRoutes.find((route) => route.operationId === 'signDepositRequest');
    expect(page).toContain(`data-sign-url="${sandboxControlRoutesBasePath}${signRoute?.path}"`);
    expect(references(page)).toContain('/docs/assets/try-it-out-signing.js');
    expect(await html('/docs/exchange-v3')).not.toContain('data-sign-url');

    const closed = await startMockServer({ port: 0, control: false });
    try {
      const unsigned = await (await fetch(`${closed.url}/docs/deposit-v1`)).text();
      expect(unsigned).not.toContain('data-sign-url');
      expect(unsigned).toContain('This mock serves no control API, so it cannot sign');
    } finally {
      await closed.close();
    }
  });

  it('is not served with docs: false', async () => {
    const bare = await startMockServer({ port: 0, docs: false });
    try {
      expect((await fetch(`${bare.url}/docs/exchange-v3`)).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

/** The text of an SVG <text> element: Graphviz writes some characters as entities. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
