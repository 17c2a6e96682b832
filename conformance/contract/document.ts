// What the generated TypeScript does not carry but a judge needs, read from the bundled contract
// (generated/<contract>/openapi.yaml): the statuses an operation documents, each response's
// content types and headers, a parameter's schema and the component it came from, request
// examples. Parsed once per process; `$ref`s are resolved inside the document.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { kitPath } from '../../kit-files.js';

export type ContractName = 'exchange-v3' | 'deposit-v1' | 'sandbox-control';

type Json = Record<string, unknown>;

export interface DocumentedResponse {
  /** Media types of the response, e.g. `application/json`; empty for a bodiless response. */
  contentTypes: string[];
  /** Headers the response declares (X-Request-Id, rate-limit and quota headers), with their `required` flag. */
  headers: { name: string; required: boolean }[];
}

export interface DocumentedParameter {
  name: string;
  in: string;
  required: boolean;
  schema: Json;
  /** The `components/parameters` entry it references (`PerPage`), if any. */
  component: string | undefined;
}

const documents = new Map<ContractName, Json>();

function documentOf(contract: ContractName): Json {
  let document = documents.get(contract);
  if (document === undefined) {
    const text = readFileSync(kitPath(`generated/${contract}/openapi.yaml`), 'utf8');
    document = parse(text, { maxAliasCount: -1 }) as Json;
    documents.set(contract, document);
  }
  return document;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/components/...`) until a value without one. */
function resolve(contract: ContractName, value: unknown): Json {
  let current = value;
  for (let depth = 0; isRecord(current) && typeof current.$ref === 'string' && depth < 16; depth++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (isRecord(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), documentOf(contract));
  }
  return isRecord(current) ? current : {};
}

function operationOf(contract: ContractName, operationId: string): Json | undefined {
  for (const item of Object.values(documentOf(contract).paths as Json)) {
    if (!isRecord(item)) continue;
    for (const operation of Object.values(item)) {
      if (isRecord(operation) && operation.operationId === operationId) return operation;
    }
  }
  return undefined;
}

/** Status (`"200"`) → what the contract documents for it; empty for an unknown operation. */
export function documentedResponses(contract: ContractName, operationId: string): Map<string, DocumentedResponse> {
  const responses = new Map<string, DocumentedResponse>();
  const declared = operationOf(contract, operationId)?.responses;
  if (!isRecord(declared)) return responses;
  for (const [status, raw] of Object.entries(declared)) {
    const response = resolve(contract, raw);
    responses.set(status, {
      contentTypes: Object.keys(isRecord(response.content) ? response.content : {}),
      headers: Object.entries(isRecord(response.headers) ? response.headers : {}).map(([name, header]) => ({ name, required: resolve(contract, header).required === true })),
    });
  }
  return responses;
}

/** The operation's parameters with their schemas resolved. */
export function documentedParameters(contract: ContractName, operationId: string): DocumentedParameter[] {
  const raw = operationOf(contract, operationId)?.parameters;
  if (!Array.isArray(raw)) return [];
  return raw.map((entry) => {
    const reference = isRecord(entry) && typeof entry.$ref === 'string' ? entry.$ref : undefined;
    const parameter = resolve(contract, entry);
    return {
      name: String(parameter.name),
      in: String(parameter.in),
      required: parameter.required === true,
      schema: resolve(contract, parameter.schema),
      component: reference?.startsWith('#/components/parameters/') ? reference.split('/').pop() : undefined,
    };
  });
}

/** The example of the operation's JSON request body (its own, else its schema's), if any. */
export function requestExample(contract: ContractName, operationId: string): unknown {
  const body = resolve(contract, operationOf(contract, operationId)?.requestBody);
  const media = isRecord(body.content) ? resolve(contract, body.content['application/json']) : {};
  if (media.example !== undefined) return media.example;
  return resolve(contract, media.schema).example;
}

/** The required top-level properties of the operation's JSON request body schema. */
export function requiredBodyFields(contract: ContractName, operationId: string): string[] {
  const body = resolve(contract, operationOf(contract, operationId)?.requestBody);
  const media = isRecord(body.content) ? resolve(contract, body.content['application/json']) : {};
  const schema = resolve(contract, media.schema);
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.map((part) => resolve(contract, part)) : [])];
  return [...new Set(parts.flatMap((part) => (Array.isArray(part.required) ? part.required.map(String) : [])))];
}

/** The media types the contract documents its error answers in (every operation's 4xx and 5xx). */
export function errorMediaTypes(contract: ContractName): Set<string> {
  const types = new Set<string>();
  for (const item of Object.values(documentOf(contract).paths as Json)) {
    if (!isRecord(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || typeof operation.operationId !== 'string') continue;
      for (const [status, response] of documentedResponses(contract, operation.operationId)) {
        if (Number(status) >= 400) for (const type of response.contentTypes) types.add(type);
      }
    }
  }
  return types;
}
