// The whole generation as a pure step: reads the contracts (the kit's contracts/ or another copy
// of them), templates/ and generator/runtime/, and returns every file of generated/ plus
// docs/contracts.md with its generated sections refreshed. Writing is cli.ts's job.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { collectAssumptions, openApiFiles } from './assumptions.js';
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

/**
 * Which contracts to read: by default every `*.openapi.yaml` of the kit's contracts/; `dir`, every
 * one of another folder laid out the same way (a newer copy of the contracts); `file`, that one
 * contract alone. The machines and assumptions are read from the contracts' folder when it has them.
 */
export type ContractSource = { dir: string } | { file: string };

export async function generate(repoRoot: string, source: ContractSource = { dir: join(repoRoot, 'contracts') }): Promise<Generation> {
  const contractsDir = 'dir' in source ? source.dir : dirname(source.file);
  const contractFiles = 'dir' in source ? openApiFiles(contractsDir) : [basename(source.file)];
  // Sources are named relative to the folder above the contracts (`contracts/exchange-v3.openapi.yaml`
  // for the kit's own), so banners do not depend on where a copy lives.
  const sourceRoot = dirname(contractsDir);
  const models = await Promise.all(
    contractFiles.map(async (file) => buildContractModel(await loadContract(join(contractsDir, file), sourceRoot))),
  );
  const machinesDir = join(contractsDir, 'machines');
  const machines = existsSync(machinesDir) ? loadMachines(machinesDir, sourceRoot) : [];
  const docs = renderDocSections(models, collectAssumptions(contractsDir, contractFiles));
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
