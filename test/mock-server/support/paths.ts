// Concrete URLs for route templates: path parameters filled with values the operation's
// generated path validator accepts (or with any given strings, for bad-input tests).
import type { ParameterDefinition, RouteDefinition } from '../../../generated/runtime/router-runtime.js';
import { families, type FamilyName } from './contract.js';

interface PathValidator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; params: Record<string, unknown> }[] | null;
}

// Tried in order until the validator accepts one: most path parameters are uuids, integer ids,
// public ids, catalog keys or, for the inspector's lists, a kind of record.
const candidates: Record<ParameterDefinition['kind'], string[]> = {
  integer: ['1', '42'],
  number: ['1'],
  boolean: ['true'],
  string: [
    '3f1c2a9e-8b7d-4c6e-9a5f-1b2c3d4e5f60',
    'ord_0123456789abcdef',
    'success-envelope.v1',
    'exchange-v3',
    'evt_0123456789abcdef',
    'deposits',
    'abc',
    '1',
  ],
};

function pathParameters(route: RouteDefinition): ParameterDefinition[] {
  return route.parameters.filter((p) => p.in === 'path');
}

function coerce(value: string, kind: ParameterDefinition['kind']): unknown {
  return kind === 'integer' || kind === 'number' ? Number(value) : kind === 'boolean' ? value === 'true' : value;
}

/** Path parameter values the contract accepts, by name. Throws when no candidate fits. */
export function validPathValues(family: FamilyName, route: RouteDefinition): Record<string, string> {
  const parameters = pathParameters(route);
  const validate = (families[family].validators[route.operationId] as { path?: PathValidator } | undefined)?.path;
  const chosen: Record<string, string> = {};
  for (const p of parameters) chosen[p.name] = candidates[p.kind][0] ?? '1';
  if (validate === undefined) return chosen;
  for (const parameter of parameters) {
    const fits = candidates[parameter.kind].find((candidate) => {
      const values = Object.fromEntries(parameters.map((p) => [p.name, coerce(p.name === parameter.name ? candidate : chosen[p.name]!, p.kind)]));
      validate(values);
      return !(validate.errors ?? []).some((e) => e.instancePath === `/${parameter.name}` || e.params.missingProperty === parameter.name);
    });
    if (fits === undefined) throw new Error(`no candidate value fits path parameter ${parameter.name} of ${route.operationId}`);
    chosen[parameter.name] = fits;
  }
  return chosen;
}

/** The route's path (with its family's base path) with `values` percent-encoded into it. */
export function fillPath(family: FamilyName, route: RouteDefinition, values: Record<string, string>, encode: (value: string) => string = encodeURIComponent): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${route.operationId}`);
    return encode(value);
  });
  return families[family].basePath + path;
}

/** The route's path with schema-valid path parameters. */
export function validPath(family: FamilyName, route: RouteDefinition): string {
  return fillPath(family, route, validPathValues(family, route));
}

export function routeOf(family: FamilyName, operationId: string): RouteDefinition {
  const route = families[family].routes.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(`no ${family} operation ${operationId}`);
  return route;
}
