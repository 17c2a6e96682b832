// Path values for operations that address existing data (an order, a deposit, a webhook): read
// from the answers of list operations. A route's values come from its nearest ancestor path that
// is a GET list of the same family (`/v1/public/deposits` for `/v1/public/deposits/{uuid}/aml`),
// one item giving every parameter; a route without such an ancestor takes values harvested for
// the same parameter names under a list of the same collection name (`{order}` of `/private/orders` serves
// `/private/exchange/orders/{order}/status`). Candidates are accepted only when the operation's
// generated path validator accepts them.
import type { RouteDefinition } from '../generated/runtime/router-runtime.js';
import type { Family } from './contract/families.js';
import { isRecord } from './judge/response.js';

type Values = Record<string, string>;

export function pathParameterNames(route: RouteDefinition): string[] {
  return route.parameters.filter((p) => p.in === 'path').map((p) => p.name);
}

/** The nearest ancestor of the route's first parameter that is a GET operation of the family. */
export function listAncestor(family: Family, route: RouteDefinition): RouteDefinition | undefined {
  const segments = route.path.split('/');
  const first = segments.findIndex((segment) => segment.startsWith('{'));
  for (let end = first; end > 1; end--) {
    const path = segments.slice(0, end).join('/');
    const ancestor = family.routes.find((candidate) => candidate.method === 'get' && candidate.path === path);
    if (ancestor !== undefined) return ancestor;
  }
  return undefined;
}

export class PathValues {
  /** `<family>|<list path>|<param names>` → values. */
  private readonly pool = new Map<string, Values[]>();

  /** Harvests values for every route whose list ancestor is `listRoute` from one of its answers. */
  harvest(family: Family, listRoute: RouteDefinition, body: unknown): void {
    const items = arraysIn(body).flat().filter(isRecord);
    for (const route of family.routes) {
      const names = pathParameterNames(route);
      if (names.length === 0 || listAncestor(family, route) !== listRoute) continue;
      const key = poolKey(family, listRoute.path, names);
      for (const item of items) {
        const values = candidatesFrom(item, names).find((candidate) => acceptsPath(family, route, candidate));
        if (values !== undefined) this.add(key, values);
      }
    }
  }

  /** Remembers values an operation returned (a created resource) for the route that reads it. */
  remember(family: Family, route: RouteDefinition, values: Values): void {
    this.add(poolKey(family, listAncestor(family, route)?.path ?? parentPath(route), pathParameterNames(route)), values);
  }

  /** Path values for the route, or undefined when none were discovered. */
  valuesFor(family: Family, route: RouteDefinition): Values | undefined {
    const names = pathParameterNames(route);
    if (names.length === 0) return {};
    const ancestor = listAncestor(family, route);
    const parent = ancestor?.path ?? parentPath(route);
    const keys = [poolKey(family, parent, names)];
    // Without a list of its own, a route takes values listed under the same collection name
    // (`/private/orders` serves `/private/exchange/orders/{order}`).
    if (ancestor === undefined) keys.push(...[...this.pool.keys()].filter((key) => sameCollection(key, family, parent, names)));
    for (const key of keys) {
      const found = this.pool.get(key)?.find((values) => acceptsPath(family, route, values));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /**
   * For an operation that is not a list: query parameters that identify a resource by id, filled
   * with a discovered value of the parameter without `_id` (`route_id` takes a `{route}`).
   */
  queryValuesFor(family: Family, route: RouteDefinition): Values {
    if (route.pagination !== undefined) return {};
    for (const parameter of route.parameters) {
      if (parameter.in !== 'query' || !parameter.name.endsWith('_id')) continue;
      const base = parameter.name.slice(0, -'_id'.length);
      for (const [key, list] of this.pool) {
        const [keyFamily, , keyNames] = key.split('|');
        const value = list[0]?.[base];
        if (keyFamily === family.name && keyNames === base && value !== undefined) return { [parameter.name]: value };
      }
    }
    return {};
  }

  private add(key: string, values: Values): void {
    const list = this.pool.get(key) ?? [];
    if (!list.some((known) => JSON.stringify(known) === JSON.stringify(values))) list.unshift(values);
    this.pool.set(key, list);
  }
}

/** The path up to the route's first parameter: `/v1/public/aml/checks` for `/v1/public/aml/checks/{uuid}`. */
function parentPath(route: RouteDefinition): string {
  return route.path.slice(0, route.path.indexOf('/{'));
}

function sameCollection(key: string, family: Family, parent: string, names: readonly string[]): boolean {
  const [keyFamily, listPath, keyNames] = key.split('|');
  return keyFamily === family.name && keyNames === names.join(',') && listPath!.split('/').pop() === parent.split('/').pop();
}

function poolKey(family: Family, listPath: string, names: readonly string[]): string {
  return `${family.name}|${listPath}|${names.join(',')}`;
}

/** The arrays of records in a list answer: in `result` (v3) or `data` (v1), one level deep. */
function arraysIn(body: unknown): unknown[][] {
  if (!isRecord(body)) return [];
  const holder = isRecord(body.result) ? body.result : body;
  const found: unknown[][] = [];
  for (const value of Object.values(holder)) if (Array.isArray(value)) found.push(value);
  if (Array.isArray(body.data)) found.push(body.data);
  return found;
}

// Fields of a nested object that may stand for it in a path (`from: { id, code }`), in order.
const objectFields = ['id', 'code', 'key'] as const;

/**
 * Candidate values of each parameter from one item: the field of that name (for a nested object,
 * its id, code or key), else, for the first parameter, the item's own key, uuid, id or public_id.
 */
function candidatesFrom(item: Record<string, unknown>, names: readonly string[]): Values[] {
  return objectFields.flatMap((field) => {
    const values: Values = {};
    for (const [index, name] of names.entries()) {
      const own = item[name];
      const value = isRecord(own)
        ? scalar(own[field])
        : (scalar(own) ?? (index === 0 ? (scalar(item.key) ?? scalar(item.uuid) ?? scalar(item.id) ?? scalar(item.public_id)) : undefined));
      if (value === undefined) return [];
      values[name] = value;
    }
    return [values];
  });
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function acceptsPath(family: Family, route: RouteDefinition, values: Values): boolean {
  const validate = family.validators[route.operationId]?.path;
  if (validate === undefined) return true;
  const typed = Object.fromEntries(
    route.parameters
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, p.kind === 'integer' || p.kind === 'number' ? Number(values[p.name]) : values[p.name]]),
  );
  return validate(typed);
}
