// The whole generation as a pure step: reads contracts/, templates/ and generator/runtime/, and
// returns every file of generated/ plus docs/contracts.md with its generated sections refreshed.
// Writing is cli.ts's job.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { collectAssumptions } from './assumptions.js';
import { emitClient } from './emit/client.js';
import { emitBundledDocument, emitContractData } from './emit/contract-data.js';
import { emitDocs, renderDocSections } from './emit/docs.js';
import { banner, type GeneratedFile } from './emit/file.js';
import { emitMachines } from './emit/machines.js';
import { emitRoutes } from './emit/routes.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';
import { loadContract } from './load.js';
import { loadMachines } from './machines.js';
import { buildContractModel, type ContractModel } from './model.js';
import { embedSections } from './embed-sections.js';

export interface Generation {
  files: GeneratedFile[];
  /** docs/contracts.md with the operation table and the assumptions as they are now. */
  contractsPage: string;
  models: ContractModel[];
}

/** The documentation page that embeds the generated operation table and assumptions. */
export const contractsPagePath = 'docs/contracts.md';

export async function generate(repoRoot: string): Promise<Generation> {
  const contractsDir = join(repoRoot, 'contracts');
  const contractFiles = readdirSync(contractsDir).filter((f) => f.endsWith('.openapi.yaml')).sort();
  const models = await Promise.all(
    contractFiles.map(async (file) => buildContractModel(await loadContract(join(contractsDir, file), repoRoot))),
  );
  const machines = loadMachines(join(contractsDir, 'machines'), repoRoot);
  const docs = renderDocSections(models, collectAssumptions(contractsDir));
  const templatesDir = join(repoRoot, 'templates');
  const files = [
    ...models.flatMap((model) => [
      emitTypes(model),
      ...emitValidators(model),
      emitRoutes(model),
      emitClient(model, templatesDir),
      emitContractData(model),
      ...emitBundledDocument(model),
    ]),
    ...emitMachines(machines),
    ...emitDocs(docs),
    ...copyRuntimes(repoRoot),
  ].sort((a, b) => a.path.localeCompare(b.path));
  const text = readFileSync(join(repoRoot, contractsPagePath), 'utf8');
  const contractsPage = embedSections({ path: contractsPagePath, text }, { ...docs });
  return { files, contractsPage, models };
}

/** The hand-written runtimes, copied verbatim under generated/runtime/ with a banner. */
function copyRuntimes(repoRoot: string): GeneratedFile[] {
  const dir = join(repoRoot, 'generator', 'runtime');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({
      path: `runtime/${file}`,
      contents: `${banner(`generator/runtime/${file}`)}\n${readFileSync(join(dir, file), 'utf8')}`,
    }));
}
