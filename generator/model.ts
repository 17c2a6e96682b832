// The one in-memory model the emitters read: operations, parameters, bodies, responses, scopes,
// security, webhooks and schemas of a contract, with the JSON pointer of every schema inside the
// bundled document (validators compile by pointer, types name by component). Emitters never
// read raw OpenAPI.
import type { OpenAPIV3_1 } from 'openapi-types';
import { ContractError, type JsonObject, type JsonValue, type LoadedContract } from './load.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';
const httpMethods: HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export interface SchemaRef {
  /** JSON pointer of the schema inside the bundled document, e.g. `/components/schemas/Order`. */
  pointer: string;
  schema: JsonObject;
}

export interface ParameterModel extends SchemaRef {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string | undefined;
  /** Arrays with `style: form, explode: false` (and path/header arrays) travel as comma lists. */
  commaSeparated: boolean;
}

export interface BodyModel extends SchemaRef {
  contentType: string;
  required: boolean;
}

export interface ResponseModel {
  /** `200`, `404`, or a range such as `4XX`. */
  status: string;
  description: string;
  contentType: string | undefined;
  body: SchemaRef | undefined;
  headers: string[];
}

export interface OperationModel {
  operationId: string;
  method: HttpMethod;
  /** As written in the contract, relative to the server (`/private/orders/{order}`). */
  path: string;
  tag: string;
  summary: string;
  description: string;
  /** Required scope; null: any active key; undefined: a public operation (no auth). */
  scope: string | null | undefined;
  /** Names of the security schemes of each accepted alternative; empty: public. */
  security: string[][];
  parameters: ParameterModel[];
  body: BodyModel | undefined;
  responses: ResponseModel[];
  idempotency: { header: string; windowSeconds: number } | undefined;
  pagination: { items: string; modes: string[] } | undefined;
  /** For webhooks: whether the event is final (`x-final`). */
  final: boolean | undefined;
}

export interface NamedSchema extends SchemaRef {
  name: string;
}

export interface ContractModel {
  /** File name without `.openapi.yaml`: the output folder under generated/. */
  name: string;
  source: string;
  title: string;
  version: string;
  /** Server URL template, e.g. `{base_url}/api/v3`, and its path prefix (`/api/v3`, or ``). */
  serverUrl: string;
  basePath: string;
  document: OpenAPIV3_1.Document;
  schemas: NamedSchema[];
  operations: OperationModel[];
  /** The OpenAPI `webhooks`: one operation per event type, keyed by the event type. */
  webhooks: { event: string; operation: OperationModel }[];
  securitySchemes: Record<string, JsonObject>;
  /** How error bodies look (`info.x-error-format`): the v3 envelope or the v1 error body. */
  errorFormat: 'v3-envelope' | 'v1';
  /** The largest request body the contract takes (`info.x-body-limit-bytes`), if it names one. */
  bodyLimitBytes: number | undefined;
  /** How deep a JSON body may nest its arrays and objects (`info.x-json-depth-limit`), if the contract says. */
  jsonDepthLimit: number | undefined;
  /**
   * The error catalog (`x-error-codes`), in the contract's order; the failures of the generated
   * middleware each code answers: `securityFailure` (`x-security-failure`), `idempotencyFailures`
   * (`x-idempotency-failure`), `limitFailures` (`x-limit-failure`: exhausted limit windows).
   */
  errorCatalog: CatalogEntryModel[];
}

export interface CatalogEntryModel {
  code: string;
  status: number;
  condition: string;
  securityFailure: string | undefined;
  idempotencyFailures: string[];
  limitFailures: string[];
}

/**
 * A contract that loads (valid OpenAPI) but lacks what the generator needs: where (a JSON pointer)
 * and why. buildContractModel names the file, so the generator reports `file#pointer: reason`.
 */
class ModelProblem extends Error {
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${pointer}: ${reason}`);
  }
}

export function buildContractModel(contract: LoadedContract): ContractModel {
  try {
    return contractModel(contract);
  } catch (error) {
    throw error instanceof ModelProblem ? new ContractError(contract.source, error.pointer, error.reason) : error;
  }
}

/** operationIds name validators, client methods and handlers: they must be identifiers. */
const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function contractModel(contract: LoadedContract): ContractModel {
  const doc = contract.document as unknown as JsonObject;
  const info = object(doc.info);
  const server = object(array(doc.servers)[0]);
  const serverUrl = string(server.url) ?? '';
  const rootSecurity = securityNames(doc.security);
  const operations = Object.entries(object(doc.paths)).flatMap(([path, item]) =>
    pathOperations(doc, path, `/paths/${token(path)}`, object(item), rootSecurity),
  );
  const webhooks = Object.entries(object(doc.webhooks)).flatMap(([event, item]) =>
    pathOperations(doc, event, `/webhooks/${token(event)}`, object(item), []).map((operation) => ({ event, operation })),
  );
  const schemas = Object.entries(object(object(doc.components).schemas)).map(([name, schema]) => ({
    name,
    pointer: `/components/schemas/${token(name)}`,
    schema: object(schema),
  }));
  const securitySchemes = Object.fromEntries(
    Object.entries(object(object(doc.components).securitySchemes)).map(([name, scheme]) => [name, object(scheme)]),
  );
  return {
    name: contract.name,
    source: contract.source,
    title: string(info.title) ?? contract.name,
    version: string(info.version) ?? '0.0.0',
    serverUrl,
    basePath: serverUrl.replace(/^\{[^}]+\}/, '').replace(/^[a-z]+:\/\/[^/]+/, ''),
    document: contract.document,
    schemas,
    operations,
    webhooks,
    securitySchemes,
    errorFormat: info['x-error-format'] === 'v1' ? 'v1' : 'v3-envelope',
    bodyLimitBytes: typeof info['x-body-limit-bytes'] === 'number' ? info['x-body-limit-bytes'] : undefined,
    jsonDepthLimit: typeof info['x-json-depth-limit'] === 'number' ? info['x-json-depth-limit'] : undefined,
    errorCatalog: array(doc['x-error-codes']).map((entry) => {
      const { code, status, condition, 'x-security-failure': securityFailure, 'x-idempotency-failure': idempotency, 'x-limit-failure': limit } = object(entry);
      return {
        code: String(code),
        status: Number(status),
        condition: string(condition) ?? '',
        securityFailure: string(securityFailure),
        idempotencyFailures: array(idempotency).map(String),
        limitFailures: array(limit).map(String),
      };
    }),
  };
}

function pathOperations(
  doc: JsonObject, path: string, pointer: string, item: JsonObject, rootSecurity: string[][],
): OperationModel[] {
  const shared = array(item.parameters);
  return httpMethods.flatMap((method) => {
    const op = item[method];
    if (!isObject(op)) return [];
    const at = `${pointer}/${method}`;
    const security = 'security' in op ? securityNames(op.security) : rootSecurity;
    const params = [
      ...shared.map((p, i) => ({ p, at: `${pointer}/parameters/${i}` })),
      ...array(op.parameters).map((p, i) => ({ p, at: `${at}/parameters/${i}` })),
    ].map(({ p, at: where }) => parameterModel(doc, p, where));
    const scope = op['x-scope'];
    return [{
      operationId: operationIdOf(op.operationId, `${at}/operationId`),
      method,
      path,
      tag: string(array(op.tags)[0]) ?? 'default',
      summary: string(op.summary) ?? '',
      description: string(op.description) ?? '',
      scope: 'x-scope' in op ? (typeof scope === 'string' ? scope : null) : undefined,
      security,
      parameters: params,
      body: bodyModel(doc, op.requestBody, `${at}/requestBody`),
      responses: Object.entries(object(op.responses)).map(([status, r]) => responseModel(doc, status, r, `${at}/responses/${token(status)}`)),
      idempotency: idempotencyOf(op['x-idempotency'], `${at}/x-idempotency`),
      pagination: paginationOf(op['x-pagination'], `${at}/x-pagination`),
      final: typeof op['x-final'] === 'boolean' ? op['x-final'] : undefined,
    }];
  });
}

function parameterModel(doc: JsonObject, raw: JsonValue, pointer: string): ParameterModel {
  const { node, at } = follow(doc, raw, pointer);
  const schema = object(node.schema);
  const location = string(node.in);
  if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') {
    throw new ModelProblem(`${at}/in`, 'must be path, query, header or cookie');
  }
  const { node: resolvedSchema } = follow(doc, schema, `${at}/schema`);
  const isArray = resolvedSchema.type === 'array';
  const style = string(node.style) ?? (location === 'query' || location === 'cookie' ? 'form' : 'simple');
  const explode = typeof node.explode === 'boolean' ? node.explode : style === 'form';
  return {
    name: required(string(node.name), `${at}/name`),
    in: location,
    required: node.required === true,
    description: string(node.description),
    pointer: `${at}/schema`,
    schema,
    commaSeparated: isArray && !explode,
  };
}

function bodyModel(doc: JsonObject, raw: JsonValue | undefined, pointer: string): BodyModel | undefined {
  if (raw === undefined) return undefined;
  const { node, at } = follow(doc, raw, pointer);
  const [contentType, media] = Object.entries(object(node.content))[0] ?? [];
  if (contentType === undefined) return undefined;
  return {
    contentType,
    required: node.required === true,
    pointer: `${at}/content/${token(contentType)}/schema`,
    schema: object(object(media).schema),
  };
}

function responseModel(doc: JsonObject, status: string, raw: JsonValue, pointer: string): ResponseModel {
  const { node, at } = follow(doc, raw, pointer);
  const [contentType, media] = Object.entries(object(node.content))[0] ?? [];
  return {
    status,
    description: string(node.description) ?? '',
    contentType,
    body: contentType === undefined
      ? undefined
      : { pointer: `${at}/content/${token(contentType)}/schema`, schema: object(object(media).schema) },
    headers: Object.keys(object(node.headers)),
  };
}

function operationIdOf(raw: JsonValue | undefined, pointer: string): string {
  const operationId = required(string(raw), pointer);
  if (!identifier.test(operationId)) throw new ModelProblem(pointer, `${operationId} is not a JavaScript identifier (it names the validators, the client method and the handler)`);
  return operationId;
}

function idempotencyOf(raw: JsonValue | undefined, pointer: string): OperationModel['idempotency'] {
  if (!isObject(raw)) return undefined;
  return { header: required(string(raw.header), `${pointer}/header`), windowSeconds: Number(raw.window_seconds) };
}

function paginationOf(raw: JsonValue | undefined, pointer: string): OperationModel['pagination'] {
  if (!isObject(raw)) return undefined;
  return { items: required(string(raw.items), `${pointer}/items`), modes: array(raw.modes).map(String) };
}

function securityNames(raw: JsonValue | undefined): string[][] {
  return array(raw).map((alternative) => Object.keys(object(alternative)));
}

/** Follows local `$ref`s (components) to the object they name, with its pointer. */
function follow(doc: JsonObject, raw: JsonValue, pointer: string): { node: JsonObject; at: string } {
  let node = raw;
  let at = pointer;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string'; hops += 1) {
    if (hops > 32 || !node.$ref.startsWith('#/')) throw new ModelProblem(at, `cannot follow $ref ${node.$ref}`);
    at = node.$ref.slice(1);
    node = resolvePointer(doc, at);
  }
  return { node: object(node), at };
}

export function resolvePointer(doc: JsonValue, pointer: string): JsonValue {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<JsonValue>((node, t) => (isObject(node) ? (node[t] ?? null) : Array.isArray(node) ? (node[Number(t)] ?? null) : null), doc);
}

/** The schema a local `$ref` (`#/components/schemas/Amount`, percent-encoded as ajv reads it) names; undefined for another document's. */
export function resolveLocalRef(doc: JsonValue, ref: string): JsonValue | undefined {
  return ref.startsWith('#/') ? resolvePointer(doc, decodeURIComponent(ref.slice(1))) : undefined;
}

export function token(value: string): string {
  return value.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function object(value: JsonValue | undefined): JsonObject {
  return isObject(value) ? value : {};
}
function array(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}
function string(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
function required<T>(value: T | undefined, where: string): T {
  if (value === undefined) throw new ModelProblem(where, 'is required');
  return value;
}
