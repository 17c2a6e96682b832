// The bundled document is emitted twice: openapi.yaml (what GET /openapi.yaml serves) and
// bundled-document.js, its JSON text (what the mock server parses, as parsing YAML is slow at
// start-up). Both must be the same document, or the mock would follow a contract other than the
// one it serves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../support/contracts.js';

describe.each(['exchange-v3', 'deposit-v1', 'sandbox-control'])('generated/%s', (contract) => {
  it('bundled-document.js holds the document of openapi.yaml as JSON', async () => {
    const { default: json } = (await import(join(repoRoot, 'generated', contract, 'bundled-document.js'))) as { default: string };
    const yaml = readFileSync(join(repoRoot, 'generated', contract, 'openapi.yaml'), 'utf8');
    expect(JSON.parse(json)).toEqual(parse(yaml, { maxAliasCount: -1 }));
  });
});
