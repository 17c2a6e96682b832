// The whole per-contract output of the generator for a small fixture contract, kept as file
// snapshots: a change to any emitter or template shows up here as a reviewable diff.
// `npx vitest run -u test/generator/fixture-output.test.ts` accepts an intended change.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitClient } from '../../generator/emit/client.js';
import type { GeneratedFile } from '../../generator/emit/file.js';
import { emitRoutes } from '../../generator/emit/routes.js';
import { emitTypes } from '../../generator/emit/types.js';
import { emitValidators } from '../../generator/emit/validators.js';
import { loadContract } from '../../generator/load.js';
import { buildContractModel } from '../../generator/model.js';
import { repoRoot } from '../support/contracts.js';

let files: GeneratedFile[] = [];

beforeAll(async () => {
  const fixture = join(repoRoot, 'test', 'fixtures', 'contracts', 'widgets.openapi.yaml');
  const model = buildContractModel(await loadContract(fixture, repoRoot));
  files = [emitTypes(model), ...emitValidators(model), emitRoutes(model), emitClient(model, join(repoRoot, 'templates'))];
});

describe('generated output of the widgets fixture', () => {
  it('has the four per-contract artifacts', () => {
    expect(files.map((f) => f.path).sort()).toEqual([
      'widgets/client.ts', 'widgets/routes.ts', 'widgets/types.ts', 'widgets/validators.d.ts', 'widgets/validators.js',
    ]);
  });

  it.each(['client.ts', 'routes.ts', 'types.ts', 'validators.d.ts', 'validators.js'])('%s matches its snapshot', async (name) => {
    const file = files.find((f) => f.path === `widgets/${name}`);
    await expect(file?.contents).toMatchFileSnapshot(`./__snapshots__/widgets/${name}.snap`);
  });
});
