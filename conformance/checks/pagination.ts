// Pagination of every reachable list (x-pagination): per-page over its maximum is a validation
// error; a page walk and a cursor walk (small pages, through the generated client's iterator)
// give conforming pages of at most per-page items, each item once, and end.
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { documentedParameters } from '../contract/document.js';
import type { RunContext } from '../context.js';
import { describeError, logExpectedError, successProblems } from './judge-call.js';
import { reachableTargets, type Target } from './targets.js';
import { itemsAt } from '../../generated/runtime/client-pagination.js';

const walkPageSize = 2;
const walkMaxPages = 5;

export async function checkPagination(context: RunContext): Promise<void> {
  for (const target of reachableTargets(context, (_family, route) => route.method === 'get' && route.pagination !== undefined)) {
    const perPage = documentedParameters(target.family.contract, target.route.operationId).find((p) => p.component === 'PerPage');
    if (perPage === undefined || typeof perPage.schema.maximum !== 'number') {
      context.log.skip(target.route.operationId, 'pagination', 'the list declares no per-page parameter with a maximum');
      continue;
    }
    await checkBound(context, target, perPage.name, perPage.schema.maximum);
    for (const mode of target.route.pagination!.modes) await checkWalk(context, target, perPage.name, mode as 'page' | 'cursor');
  }
}

async function checkBound(context: RunContext, { family, route, path }: Target, name: string, maximum: number): Promise<void> {
  const client = context.clientOf(family.name)!;
  const spec = context.specOf(family.name, route.operationId);
  const { exchange } = await context.call(() => client.runtime.request(spec, { path, query: { [name]: maximum + 1 } }));
  const code = family.codes.validation;
  logExpectedError(context, family, route.operationId, 'pagination:per-page-bound', exchange, { status: family.errorCodes[code]!.status, code });
}

async function checkWalk(context: RunContext, { family, route, path }: Target, name: string, mode: 'page' | 'cursor'): Promise<void> {
  const client = context.clientOf(family.name)!;
  const spec = context.specOf(family.name, route.operationId);
  const check = `pagination:${mode}-walk`;
  const mark = context.exchanges.mark();
  const problems: string[] = [];
  let walked = 0;
  try {
    const iterator = client.runtime.paginate(spec, { path, query: { [name]: walkPageSize } }, mode);
    for await (const _item of iterator) {
      walked += 1;
      if (walked >= walkPageSize * walkMaxPages) break;
    }
  } catch (error) {
    problems.push(`the walk failed: ${describeError(error)}`);
  }
  const pages = context.exchanges.since(mark);
  const seen = new Set<string>();
  for (const [index, page] of pages.entries()) {
    problems.push(...successProblems(family, route.operationId, page, undefined).map((problem) => `page ${index + 1}: ${problem}`));
    const items = pageItems(route, page.bodyText);
    if (items.length > walkPageSize) problems.push(`page ${index + 1} has ${items.length} items, asked for ${walkPageSize}`);
    for (const item of items) {
      const key = JSON.stringify(item);
      if (seen.has(key)) problems.push(`page ${index + 1} repeats an item of an earlier page`);
      seen.add(key);
    }
  }
  context.log.judge(route.operationId, check, problems, `${pages.length} page(s), ${seen.size} item(s), ${walkPageSize} per page`);
}

function pageItems(route: RouteDefinition, bodyText: string): unknown[] {
  try {
    return itemsAt(JSON.parse(bodyText), route.pagination!.items, route.operationId);
  } catch {
    return [];
  }
}
