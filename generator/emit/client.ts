// Emits <contract>/client.ts from templates/client.ts.hbs: the operation specs (as JSON) and a
// typed method per operation over the copied client runtime.
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import type { JsonObject } from '../load.js';
import type { ContractModel, OperationModel } from '../model.js';
import { banner, camelCase, pascalCase, type GeneratedFile } from './file.js';

export function emitClient(model: ContractModel, templatesDir: string): GeneratedFile {
  const template = compile(templatesDir);
  const [signatureSchemeName, signatureScheme] = signatureSchemeOf(model);
  const contents = template({
    banner: banner(model.source),
    title: model.title,
    camel: camelCase(model.name),
    pascalName: pascalCase(model.name),
    basePath: model.basePath,
    errorFormat: model.errorFormat,
    specs: Object.fromEntries(model.operations.map((op) => [op.operationId, operationSpec(op)])),
    signatureScheme,
    signatureSchemeName,
    operations: model.operations.map(operationView),
  });
  return { path: `${model.name}/client.ts`, contents };
}

function compile(templatesDir: string): HandlebarsTemplateDelegate {
  const handlebars = Handlebars.create();
  handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null, null, 2));
  return handlebars.compile(readFileSync(`${templatesDir}/client.ts.hbs`, 'utf8'), { noEscape: true, strict: true });
}

function operationSpec(op: OperationModel): JsonObject {
  const spec: JsonObject = {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    query: op.parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, commaSeparated: p.commaSeparated })),
    headers: op.parameters.filter((p) => p.in === 'header').map((p) => p.name),
  };
  if (op.idempotency) spec.idempotencyHeader = op.idempotency.header;
  if (op.body) spec.body = { contentType: op.body.contentType };
  if (op.pagination) spec.pagination = { items: op.pagination.items, modes: op.pagination.modes };
  return spec;
}

function operationView(op: OperationModel) {
  const params = (location: string) => op.parameters.filter((p) => p.in === location);
  const hasPath = params('path').length > 0;
  const queryRequired = params('query').some((p) => p.required);
  const bodyRequired = op.body?.required === true;
  return {
    operationId: op.operationId,
    pascal: pascalCase(op.operationId),
    method: op.method.toUpperCase(),
    path: op.path,
    summary: op.summary.replace(/\*\//g, '*\\/'),
    scope: op.scope ?? null,
    hasPath,
    hasQuery: params('query').length > 0,
    queryRequired,
    hasHeaders: params('header').length > 0,
    hasBody: op.body !== undefined,
    bodyRequired,
    inputRequired: hasPath || queryRequired || bodyRequired,
    pagination: op.pagination ? { modes: op.pagination.modes.join(' or ') } : null,
    // `result.orders` → `['result']['orders']`: the type of the items array inside the result.
    itemsPath: op.pagination ? op.pagination.items.split('.').map((key) => `['${key}']`).join('') : '',
  };
}

/** The first security scheme that carries `x-signature-scheme`, with its name. */
function signatureSchemeOf(model: ContractModel): [string | null, JsonObject | null] {
  for (const [name, scheme] of Object.entries(model.securitySchemes)) {
    const data = scheme['x-signature-scheme'];
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) return [name, data];
  }
  return [null, null];
}
