// /docs: the API reference of the three contracts (Swagger UI), the state machines and the
// assumptions, all served by the mock itself (assets from swagger-ui-dist in node_modules, no
// CDN). Pages are built on first request, so the docs cost nothing at start-up. The deposit v1
// page signs its "Try it out" requests through the control API when the mock serves one.
import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { isDocsContract, docsContracts, specFor } from './specs.js';
import type { TryItOutSigning } from './signing-panel.js';
import { kitPath } from '../../kit-files.js';
import { pageSecurityHeaders } from '../http/page-security-headers.js';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownAssetsDir = kitPath('mock-server/docs-page/assets/');
const contractsDir = kitPath('contracts/');

// Only these files are served (name → directory): swagger-ui-dist also ships a demo page
// pointing at a remote spec.
const assets: Record<string, string> = {
  'swagger-ui.css': swaggerUiDir,
  'swagger-ui-bundle.js': swaggerUiDir,
  'favicon-32x32.png': swaggerUiDir,
  'docs.css': ownAssetsDir,
  'swagger-init.js': ownAssetsDir,
  'try-it-out-signing.js': ownAssetsDir,
};

export interface DocsPageOptions {
  /** How the deposit v1 page signs "Try it out"; null when the mock serves no control API. */
  signing: TryItOutSigning | null;
}

export function docsPage(options: DocsPageOptions): Router {
  const router = express.Router();
  router.use(pageSecurityHeaders({ inlineStyles: true }));
  const rendered = new Map<string, string>();
  const html = async (key: string, render: () => Promise<string>): Promise<string> => {
    const cached = rendered.get(key) ?? (await render());
    rendered.set(key, cached);
    return cached;
  };

  router.get('/', (req, res) => res.redirect(302, `${req.baseUrl}/${docsContracts[0]}`));
  router.get('/machines', async (req, res) => {
    const { machinesPage } = await import('./machines-page.js');
    res.type('html').send(await html('machines', () => machinesPage(req.baseUrl)));
  });
  router.get('/assumptions', async (req, res) => {
    const { assumptionsPage } = await import('./assumptions-page.js');
    res.type('html').send(await html('assumptions', async () => assumptionsPage(req.baseUrl, contractsDir)));
  });
  router.get('/specs/:file', (req, res, next) => {
    const contract = req.params.file.replace(/\.json$/, '');
    if (!req.params.file.endsWith('.json') || !isDocsContract(contract)) return next();
    res.json(specFor(contract, `${req.protocol}://${req.get('host') ?? 'localhost'}`));
  });
  router.get('/assets/:file', (req, res, next) => {
    const dir = Object.hasOwn(assets, req.params.file) ? assets[req.params.file] : undefined;
    if (dir === undefined) return next();
    // `root`: the dot-directory check applies below it only (npx installs under ~/.npm/_npx).
    res.sendFile(req.params.file, { root: dir, maxAge: '1h' }, (error) => {
      if (error && !res.headersSent) res.status(404).end();
    });
  });
  router.get('/:contract', async (req, res, next) => {
    const contract = req.params.contract;
    if (!isDocsContract(contract)) return next();
    const { referencePage } = await import('./reference-page.js');
    res.type('html').send(await html(contract, async () => referencePage(req.baseUrl, contract, options.signing)));
  });
  return router;
}
