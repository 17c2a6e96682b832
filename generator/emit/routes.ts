// Emits <contract>/routes.ts from templates/routes.ts.hbs: the typed handler interface (one method
// per operationId), the route table the app's middleware reads (scope, idempotency, pagination,
// parameters), the router factory over the copied runtime (generator/runtime/router-runtime.ts)
// and the security, idempotency and limit-header middleware with the contract's codes and headers.
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ContractError, type JsonObject, type JsonValue } from '../load.js';
import { isObject, resolvePointer, type ContractModel, type OperationModel, type ParameterModel } from '../model.js';
import type { CatalogCode, ContractErrors, EchoedHeader, ParameterDefinition, RouteDefinition, ScalarKind } from '../runtime/router-runtime.js';
import type { SecurityFailure } from '../runtime/server-security.js';
import { banner, camelCase, pascalCase, type GeneratedFile } from './file.js';
import { idempotencyData, limitData } from './route-hooks.js';

const defaultTemplatesDir = fileURLToPath(new URL('../../templates', import.meta.url));

export function emitRoutes(model: ContractModel, templatesDir: string = defaultTemplatesDir): GeneratedFile {
  const template = compile(templatesDir);
  const contents = template({
    banner: banner(model.source),
    title: model.title,
    source: model.source,
    camel: camelCase(model.name),
    pascal: pascalCase(model.name),
    basePath: model.basePath,
    operations: model.operations.map((op) => ({
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      summary: op.summary.replace(/\*\//g, '*\\/'),
    })),
    routes: model.operations.map((op) => routeDefinition(model, op)),
    errors: contractErrors(model),
    securityFailures: securityFailures(model),
    idempotency: idempotencyData(model),
    limits: limitData(model),
    // The member of a success body that holds the payload, by error format.
    resultKey: model.errorFormat === 'v1' ? 'data' : 'result',
  });
  return { path: `${model.name}/routes.ts`, contents };
}

function compile(templatesDir: string): HandlebarsTemplateDelegate {
  const handlebars = Handlebars.create();
  handlebars.registerHelper('literal', (value: unknown) => literal(value));
  handlebars.registerHelper('union', (values: string[]) => values.map(literal).join(' | '));
  return handlebars.compile(readFileSync(`${templatesDir}/routes.ts.hbs`, 'utf8'), { noEscape: true, strict: true });
}

/** A one-line TypeScript literal of a JSON-like value: single quotes, bare keys, `undefined` kept. */
function literal(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key)}: ${literal(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * The catalog codes the router answers with itself: the validation code (named
 * `validation_error` in any case) and the 501 code; a contract without them gets those names.
 */
function contractErrors(model: ContractModel): ContractErrors {
  const validation = model.errorCatalog.find((entry) => entry.code.toLowerCase() === 'validation_error');
  return {
    format: model.errorFormat,
    validation: { code: validation?.code ?? 'validation_error', status: validation?.status ?? 422 },
    notImplemented: firstOf(model, 501, 'not_implemented'),
    // Each of these statuses has one meaning in HTTP, so the catalog's code of that status is it.
    transport: {
      'malformed-body': firstOf(model, 400, 'bad_request'),
      'malformed-path': firstOf(model, 400, 'bad_request'),
      'payload-too-large': firstOf(model, 413, 'payload_too_large'),
      'unsupported-media-type': firstOf(model, 415, 'unsupported_media_type'),
      'not-found': firstOf(model, 404, 'not_found'),
      'method-not-allowed': firstOf(model, 405, 'method_not_allowed'),
      'internal-error': firstOf(model, 500, 'internal_error'),
    },
    bodyLimitBytes: model.bodyLimitBytes,
    jsonDepthLimit: model.jsonDepthLimit,
    correlation: echoedHeader(model, 'correlation_id'),
  };
}

/** The schema keywords of an echoed header the runtime checks (router-runtime.ts `echoable`), beside annotations. */
const echoedHeaderKeywords = new Set(['type', 'minLength', 'maxLength', 'pattern', 'description', 'title', 'example', 'examples']);

/**
 * The header parameter whose value answers carry as `field` (`x-echoed-as`), with its schema's
 * bounds. A keyword the runtime would not check is refused here rather than left unchecked.
 */
function echoedHeader(model: ContractModel, field: string): EchoedHeader | undefined {
  const parameters = Object.values(model.document.components?.parameters ?? {}) as unknown as JsonObject[];
  const parameter = parameters.find((candidate) => candidate['x-echoed-as'] === field && candidate.in === 'header');
  if (parameter === undefined) return undefined;
  const schema = follow(model, isObject(parameter.schema) ? parameter.schema : {});
  const unchecked = Object.keys(schema).filter((keyword) => !echoedHeaderKeywords.has(keyword));
  if (schema.type !== 'string' || unchecked.length > 0) {
    throw new Error(`${model.source}: the ${String(parameter.name)} header echoed as ${field} must be a string bounded by minLength, maxLength and pattern only (has ${unchecked.join(', ') || `type ${String(schema.type)}`})`);
  }
  const count = (keyword: string) => (typeof schema[keyword] === 'number' ? schema[keyword] : undefined);
  return { name: String(parameter.name), minLength: count('minLength'), maxLength: count('maxLength'), pattern: typeof schema.pattern === 'string' ? schema.pattern : undefined };
}

/** The catalog's first code of a status, else `fallback` with that status. */
function firstOf(model: ContractModel, status: number, fallback: string): CatalogCode {
  const entry = model.errorCatalog.find((e) => e.status === status);
  return { code: entry?.code ?? fallback, status };
}

/**
 * The catalog code answering each failure of the security schemes, as `x-security-failure`
 * marks it. An unmarked failure borrows a related code (an expired or replayed signature is
 * an invalid one, a missing signature missing credentials), else the catalog's first 401 (403
 * for a denied scope).
 */
function securityFailures(model: ContractModel): Record<SecurityFailure, CatalogCode> {
  const marked = (failure: SecurityFailure): CatalogCode | undefined => {
    const entry = model.errorCatalog.find((e) => e.securityFailure === failure);
    return entry === undefined ? undefined : { code: entry.code, status: entry.status };
  };
  const missing = marked('credentials-missing') ?? firstOf(model, 401, 'unauthorized');
  const invalid = marked('signature-invalid') ?? missing;
  return {
    'credentials-missing': missing,
    'credentials-unknown': marked('credentials-unknown') ?? missing,
    'signature-missing': marked('signature-missing') ?? missing,
    'signature-invalid': invalid,
    'signature-expired': marked('signature-expired') ?? invalid,
    'signature-replayed': marked('signature-replayed') ?? invalid,
    'scope-denied': marked('scope-denied') ?? firstOf(model, 403, 'forbidden'),
  };
}

function routeDefinition(model: ContractModel, op: OperationModel): RouteDefinition {
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    tag: op.tag,
    scope: op.scope,
    security: op.security,
    parameters: op.parameters.map((p) => parameterDefinition(model, op, p)),
    body: op.body === undefined ? undefined : { contentType: op.body.contentType, required: op.body.required },
    idempotency: op.idempotency,
    pagination: op.pagination,
  };
}

function parameterDefinition(model: ContractModel, op: OperationModel, parameter: ParameterModel): ParameterDefinition {
  if (parameter.in === 'cookie') {
    throw new ContractError(model.source, parameter.pointer.replace(/\/schema$/, ''), `${op.operationId}: cookie parameter ${parameter.name} is not supported by the router`);
  }
  const schema = follow(model, parameter.schema);
  const array = typeOf(model, schema) === 'array';
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.required,
    kind: scalarKind(typeOf(model, array && isObject(schema.items) ? follow(model, schema.items) : schema)),
    array,
    commaSeparated: parameter.commaSeparated,
  };
}

function follow(model: ContractModel, schema: JsonObject): JsonObject {
  let node: JsonValue = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < 32; hops += 1) {
    node = resolvePointer(model.document as unknown as JsonValue, node.$ref.slice(1));
  }
  return isObject(node) ? node : {};
}

/** The schema's type, ignoring `null`; for combinators, the first branch that names one. */
function typeOf(model: ContractModel, schema: JsonObject): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const found = isObject(branch) ? typeOf(model, follow(model, branch)) : undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function scalarKind(type: string | undefined): ScalarKind {
  return type === 'integer' || type === 'number' || type === 'boolean' ? type : 'string';
}
