// Emits generated/docs: the list of assumptions and the operation/scope table, which
// docs/contracts.md embeds between its `<!-- generated:<name> -->` markers (see embed-sections.ts).
import { renderAssumptions, type Assumption } from '../assumptions.js';
import type { ContractModel } from '../model.js';
import { banner, type GeneratedFile } from './file.js';

export interface DocSections {
  assumptions: string;
  operations: string;
}

export function renderDocSections(models: ContractModel[], assumptions: Assumption[]): DocSections {
  return { assumptions: renderAssumptions(assumptions), operations: renderOperations(models) };
}

export function emitDocs(sections: DocSections): GeneratedFile[] {
  return [
    { path: 'docs/assumptions.md', contents: `${banner('contracts/', 'md')}\n\n# Assumptions\n\n${sections.assumptions}\n` },
    { path: 'docs/operations.md', contents: `${banner('contracts/*.openapi.yaml', 'md')}\n\n# Operations\n\n${sections.operations}\n` },
  ];
}

function renderOperations(models: ContractModel[]): string {
  return models
    .map((model) => {
      const rows = model.operations.map((op) =>
        `| ${op.method.toUpperCase()} | \`${model.basePath}${op.path}\` | \`${op.operationId}\` | ${access(op.scope, op.security)} |`,
      );
      return [
        `#### ${model.title} (\`${model.source}\`, ${model.operations.length} operations)`,
        '',
        '| method | path | operationId | access |',
        '|---|---|---|---|',
        ...rows,
      ].join('\n');
    })
    .join('\n\n');
}

function access(scope: string | null | undefined, security: string[][]): string {
  if (scope === null) return 'any active key';
  if (typeof scope === 'string') return `\`${scope}\``;
  const schemes = [...new Set(security.flat())].map((s) => `\`${s}\``).join(', ');
  if (schemes === '') return 'public';
  // An empty alternative ({}) makes the schemes optional.
  return security.some((alternative) => alternative.length === 0) ? `public, or ${schemes}` : schemes;
}
