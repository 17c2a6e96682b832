// Pagination of every reachable list (x-pagination): per-page over its maximum is a validation
// error; a page walk and a cursor walk give conforming pages of at most per-page items, each item
// once, and end: the last page says it is the last (through the same reading of the meta as the
// generated client's iterator), with a total, where the meta has one, equal to the items seen.
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { itemsAt, pageStanding, pagingPlan, type PageMode, type QueryPatch } from '../../generated/runtime/client-pagination.js';
import { documentedParameters } from '../contract/document.js';
import type { RunContext } from '../context.js';
import { describeError, logExpectedError, successProblems } from './judge-call.js';
import { reachableTargets, type Target } from './targets.js';

/** The smallest page of a walk: small enough that a short list still takes several pages. */
const walkPageSize = 2;
/** A walk's budget: the page size grows (up to the maximum per page) to reach the end within it. */
const walkMaxPages = 10;

export async function checkPagination(context: RunContext): Promise<void> {
  for (const target of reachableTargets(context, (_family, route) => route.method === 'get' && route.pagination !== undefined)) {
    const perPage = documentedParameters(target.family.contract, target.route.operationId).find((p) => p.component === 'PerPage');
    if (perPage === undefined || typeof perPage.schema.maximum !== 'number') {
      context.log.skip(target.route.operationId, 'pagination', 'the list declares no per-page parameter with a maximum');
      continue;
    }
    await checkBound(context, target, perPage.name, perPage.schema.maximum);
    const size = await walkSize(context, target, perPage.name, perPage.schema.maximum);
    for (const mode of target.route.pagination!.modes) await checkWalk(context, target, perPage.name, size, mode as PageMode);
  }
}

async function checkBound(context: RunContext, { family, route, path }: Target, name: string, maximum: number): Promise<void> {
  const client = context.clientOf(family.name)!;
  const spec = context.specOf(family.name, route.operationId);
  const { exchange } = await context.call(() => client.runtime.request(spec, { path, query: { [name]: maximum + 1 } }));
  const code = family.codes.validation;
  logExpectedError(context, family, route.operationId, 'pagination:per-page-bound', exchange, { status: family.errorCodes[code]!.status, code });
}

/**
 * The page size that walks the whole list within the budget (one page kept in reserve for items
 * added meanwhile): sized from the total a first page reports, else the maximum per page.
 */
async function walkSize(context: RunContext, { family, route, path }: Target, name: string, maximum: number): Promise<number> {
  let total: unknown;
  if (route.pagination!.modes.includes('page')) {
    const client = context.clientOf(family.name)!;
    const query = { ...pagingPlan(family.errorFormat, 'page').first, [name]: walkPageSize };
    const { value } = await context.call(() => client.runtime.request(context.specOf(family.name, route.operationId), { path, query }));
    total = value === undefined ? undefined : pageStanding(family.errorFormat, value.body).total;
  }
  if (typeof total !== 'number') return maximum;
  return Math.min(maximum, Math.max(walkPageSize, Math.ceil(total / (walkMaxPages - 1))));
}

async function checkWalk(context: RunContext, { family, route, path }: Target, name: string, size: number, mode: PageMode): Promise<void> {
  const client = context.clientOf(family.name)!;
  const spec = context.specOf(family.name, route.operationId);
  const check = `pagination:${mode}-walk`;
  const plan = pagingPlan(family.errorFormat, mode);
  const problems: string[] = [];
  const seen = new Set<string>();
  let patch: QueryPatch | undefined = plan.first;
  let pages = 0;
  while (patch !== undefined && pages < walkMaxPages) {
    const { exchange, value, error } = await context.call(() => client.runtime.request(spec, { path, query: { ...patch, [name]: size } }));
    pages += 1;
    const pageProblems = successProblems(family, route.operationId, exchange, error);
    problems.push(...pageProblems.map((problem) => `page ${pages}: ${problem}`));
    if (value === undefined) {
      if (pageProblems.length === 0) problems.push(`page ${pages}: ${describeError(error)}`);
      break;
    }
    const items = pageItems(route, value.body);
    if (items.length > size) problems.push(`page ${pages} has ${items.length} items, asked for ${size}`);
    for (const item of items) {
      const key = JSON.stringify(item);
      if (seen.has(key)) problems.push(`page ${pages} repeats an item of an earlier page`);
      seen.add(key);
    }
    patch = plan.next(value.body);
    if (patch === undefined) problems.push(...endProblems(mode, pageStanding(family.errorFormat, value.body), seen.size).map((problem) => `page ${pages} (the last): ${problem}`));
    else if (items.length === 0) {
      problems.push(`page ${pages} is empty but its meta claims more pages: the list never ends`);
      break;
    }
  }
  if (problems.length === 0 && patch !== undefined) {
    context.log.cannotRun(route.operationId, check, `did not reach the end within ${walkMaxPages} pages of ${size} (${seen.size} item(s) so far)`);
    return;
  }
  context.log.judge(route.operationId, check, problems, `${pages} page(s) to the end, ${seen.size} item(s), ${size} per page`);
}

/** Whether the last page's meta agrees with itself and with the walk that reached it. */
function endProblems(mode: PageMode, standing: ReturnType<typeof pageStanding>, itemsSeen: number): string[] {
  if (mode === 'cursor') {
    const problems: string[] = [];
    if (standing.hasMore !== false) problems.push(`it gives no next cursor but says more follow (has more: ${JSON.stringify(standing.hasMore)})`);
    if (standing.nextCursor !== null && standing.nextCursor !== undefined) problems.push('it says nothing follows but gives a next cursor');
    return problems;
  }
  if (standing.current !== standing.last) return [`it is page ${JSON.stringify(standing.current)} of ${JSON.stringify(standing.last)}`];
  return typeof standing.total === 'number' && standing.total !== itemsSeen ? [`the total is ${standing.total}, the walk saw ${itemsSeen} item(s)`] : [];
}

function pageItems(route: RouteDefinition, body: unknown): unknown[] {
  try {
    return itemsAt(body, route.pagination!.items, route.operationId);
  } catch {
    return []; // the page's schema check reports a body without its list
  }
}
