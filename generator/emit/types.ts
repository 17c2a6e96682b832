// Emits `<contract>/types.ts`: one type per component schema, the request and response types of
// every operation, the `Operations` index the client and router generators read, and the
// webhook bodies. The type text comes from schema-to-ts, already formatted.
import { ContractError, type JsonValue } from '../load.js';
import { token, type ContractModel, type OperationModel, type ParameterModel, type ResponseModel } from '../model.js';
import { banner, pascalCase } from './file.js';
import type { GeneratedFile } from './file.js';
import { jsDoc, objectTypeText, type MemberText, propertyKey, schemaToTs, stringLiteral, typeName } from './schema-to-ts.js';

const fileHeader = `
// Types of the contract, from its JSON Schemas (validation-only keywords such as patterns,
// bounds, \`not\` and \`if\`/\`then\`/\`else\` are left to the validators):
// - one type per component schema, with the component's name;
// - per operation, named from its operationId (listOrders → ListOrders…): …PathParams, …Query,
//   …Headers (only when it has such parameters, keyed by the parameter names as written),
//   …Body (JSON or multipart request body), …Responses (status key → body; unknown without a
//   body, string for non-JSON media), …Result (union of the 2xx bodies) and …Error (union of
//   the other bodies, never when there are none);
// - \`Operations\`, indexed by operationId then part: Operations['listOrders']['query']. A part an
//   operation does not have is \`Record<string, never>\` for path, query and headers (an empty
//   object, so indexing and spreading always work) and \`undefined\` for body (nothing is sent);
// - per webhook event, <Event>WebhookBody (order.created → OrderCreatedWebhookBody), and
//   \`WebhookBodies\`, event type → body.
`;

export function emitTypes(model: ContractModel): GeneratedFile {
  const declare = new Declarations(model);
  declareSchemas(declare, model);
  const operations = model.operations.map((op) => {
    declare.at = `/paths/${token(op.path)}/${op.method}/operationId`;
    return declareOperation(declare, model, op);
  });
  declare.at = '';
  declare.interface(
    'Operations',
    operations.map(({ op, parts }) => ({
      name: op.operationId,
      type: objectTypeText(Object.entries(parts).map(([name, type]) => ({ name, type, optional: false }))),
      optional: false,
    })),
    'Every operation by operationId: its request parts and response types.',
  );
  declareWebhooks(declare, model);
  // One blank line between declarations. The text is already formatted (schema-to-ts indents
  // it); assembling it through ts-morph only cost loading the TypeScript compiler.
  const declarations = declare.statements.map(({ text }) => text).join('\n\n');
  return { path: `${model.name}/types.ts`, contents: `${banner(model.source)}\n${fileHeader}\n${declarations}\n` };
}

/** Collects exported type aliases, refusing a name twice (a contract name clash would otherwise shadow). */
class Declarations {
  /** Declarations as finished text (schema-to-ts indents it). */
  readonly statements: { kind: 'alias' | 'interface'; text: string }[] = [];
  private readonly names = new Set<string>();
  /** The JSON pointer of what is being declared (a schema, an operationId), for a clash's message. */
  at = '';

  constructor(private readonly model: ContractModel) {}

  private claim(name: string): void {
    if (this.names.has(name)) throw new ContractError(this.model.source, this.at, `two types would be named ${name}`);
    this.names.add(name);
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  type(schema: JsonValue): string {
    return schemaToTs(schema, { document: this.model.document as unknown as JsonValue });
  }

  interface(name: string, members: MemberText[], description: string): void {
    this.claim(name);
    this.statements.push({ kind: 'interface', text: `${jsDoc(description)}export interface ${name} ${objectTypeText(members)}` });
  }

  alias(name: string, type: string, description?: string, deprecated?: boolean): void {
    this.claim(name);
    this.statements.push({ kind: 'alias', text: `${jsDoc(description, deprecated)}export type ${name} = ${type};` });
  }
}

function declareSchemas(declare: Declarations, model: ContractModel): void {
  for (const { name, schema, pointer } of model.schemas) {
    declare.at = pointer;
    const description = typeof schema.description === 'string' ? schema.description : undefined;
    declare.alias(typeName(name), declare.type(schema), description, schema.deprecated === true);
  }
}

interface OperationParts {
  op: OperationModel;
  parts: Record<'path' | 'query' | 'headers' | 'body' | 'responses' | 'responseHeaders' | 'result' | 'error', string>;
}

function declareOperation(declare: Declarations, model: ContractModel, op: OperationModel): OperationParts {
  const name = pascalCase(op.operationId);
  const where = `\`${op.operationId}\` (${op.method.toUpperCase()} ${model.basePath}${op.path})`;
  const parameters = (location: ParameterModel['in'], suffix: string, what: string): string => {
    const params = op.parameters.filter((p) => p.in === location);
    if (params.length === 0) return 'Record<string, never>';
    const members = params.map((p) => ({
      name: p.name,
      type: declare.type(p.schema),
      optional: !p.required,
      description: p.description,
    }));
    declare.alias(`${name}${suffix}`, objectTypeText(members), `${what} of ${where}.`);
    return `${name}${suffix}`;
  };
  const path = parameters('path', 'PathParams', 'Path parameters');
  const query = parameters('query', 'Query', 'Query parameters');
  const headers = parameters('header', 'Headers', 'Header parameters');

  let body = 'undefined';
  if (op.body !== undefined) {
    declare.alias(`${name}Body`, mediaType(declare, op.body.contentType, op.body.schema), `Request body (${op.body.contentType}) of ${where}.`);
    body = op.body.required ? `${name}Body` : `${name}Body | undefined`;
  }

  const responses = `${name}Responses`;
  declare.alias(
    responses,
    objectTypeText(op.responses.map((r) => ({ name: r.status, type: responseType(declare, r), optional: false, description: r.description }))),
    `Response bodies of ${where} by status.${op.summary ? `\n\n${op.summary}.` : ''}`,
  );
  // The headers each status declares, as a reply sets them (values are header text).
  const responseHeaders = `${name}ResponseHeaders`;
  declare.alias(
    responseHeaders,
    objectTypeText(
      op.responses.map((r) => ({
        name: r.status,
        type: objectTypeText(r.headers.map((header) => ({ name: header, type: 'string', optional: true }))),
        optional: false,
      })),
    ),
    `Response headers of ${where} by status.`,
  );
  const indexed = (responsesOf: ResponseModel[]): string =>
    responsesOf.length === 0 ? 'never' : `${responses}[${responsesOf.map((r) => stringLiteral(r.status)).join(' | ')}]`;
  const success = op.responses.filter((r) => r.status.startsWith('2'));
  declare.alias(`${name}Result`, indexed(success), `Body of a successful (2xx) response of ${where}.`);
  declare.alias(`${name}Error`, indexed(op.responses.filter((r) => !success.includes(r))), `Body of an error response of ${where}.`);
  return { op, parts: { path, query, headers, body, responses, responseHeaders, result: `${name}Result`, error: `${name}Error` } };
}

function responseType(declare: Declarations, response: ResponseModel): string {
  if (response.body === undefined || response.contentType === undefined) return 'unknown';
  return mediaType(declare, response.contentType, response.body.schema);
}

/** JSON and form bodies follow their schema; other media (YAML, XML, text) arrive as text. */
function mediaType(declare: Declarations, contentType: string, schema: JsonValue): string {
  const structured = /^application\/(.+\+)?json\b|^multipart\/form-data\b|^application\/x-www-form-urlencoded\b/.test(contentType);
  return structured ? declare.type(schema) : 'string';
}

function declareWebhooks(declare: Declarations, model: ContractModel): void {
  const bodies = model.webhooks.map(({ event, operation }) => {
    const name = `${pascalCase(event)}WebhookBody`;
    const schema = operation.body?.schema ?? true;
    // deposit-v1 names a component after the event already (`DepositSweptWebhookBody`); reuse it.
    const sameComponent = declare.has(name) && declare.type(schema) === name;
    if (!sameComponent) declare.alias(name, declare.type(schema), `Body POSTed for the \`${event}\` webhook event.`);
    return { name: event, type: name, optional: false };
  });
  declare.alias('WebhookBodies', objectTypeText(bodies), 'Webhook body by event type.');
}
