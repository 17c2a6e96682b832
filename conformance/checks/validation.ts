// Validation errors for bad input derived from the contract: for each reachable operation, a query
// (else path) parameter set to a value its schema forbids, and (with --allow-writes) an empty JSON
// body where the schema requires fields. The answer must be the catalog's validation error
// with error.details naming the field, never a 5xx.
import { documentedParameters, requiredBodyFields } from '../contract/document.js';
import type { RunContext } from '../context.js';
import { logExpectedError } from './judge-call.js';
import { violatingValue } from './bad-values.js';
import { placeholderBody, reachableTargets, type Target } from './targets.js';

export async function checkValidation(context: RunContext): Promise<void> {
  for (const target of reachableTargets(context, () => true)) {
    await checkBadParameter(context, target);
    if (target.route.body?.contentType === 'application/json') await checkEmptyBody(context, target);
  }
}

async function checkBadParameter(context: RunContext, target: Target): Promise<void> {
  const { family, route } = target;
  const parameters = documentedParameters(family.contract, route.operationId);
  const candidates = [...parameters.filter((p) => p.in === 'query'), ...parameters.filter((p) => p.in === 'path')];
  const chosen = candidates.map((p) => ({ parameter: p, value: violatingValue(p.schema) })).find((c) => c.value !== undefined);
  if (chosen === undefined) return; // nothing the contract constrains: not applicable
  const { parameter, value } = chosen;
  const body = placeholderBody(route);
  const input = parameter.in === 'query'
    ? { path: target.path, query: { [parameter.name]: value }, body }
    : { path: { ...target.path, [parameter.name]: String(value) }, body };
  await expectValidationError(context, target, 'validation:parameter', input, parameter.name, `${parameter.in} ${parameter.name}=${String(value).slice(0, 20)}`);
}

async function checkEmptyBody(context: RunContext, target: Target): Promise<void> {
  const required = requiredBodyFields(target.family.contract, target.route.operationId);
  if (required.length === 0) return; // an empty body is valid: not applicable
  await expectValidationError(context, target, 'validation:body', { path: target.path, body: {} }, required[0]!, `an empty body (requires ${required.join(', ')})`);
}

async function expectValidationError(context: RunContext, target: Target, check: string, input: Record<string, unknown>, field: string, sent: string): Promise<void> {
  const { family, route } = target;
  const client = context.clientOf(family.name)!;
  const spec = context.specOf(family.name, route.operationId);
  const { exchange } = await context.call(() => client.runtime.request(spec, input));
  const code = family.codes.validation;
  logExpectedError(context, family, route.operationId, check, exchange, {
    status: family.errorCodes[code]!.status,
    code,
    extra: (body) => detailsProblems(body, field, sent),
  });
}

/**
 * error.details must be an object keyed by field names (description 7), one of them the field
 * that was broken or a part of it (`requisites.to_address` for `requisites`).
 */
function detailsProblems(body: unknown, field: string, sent: string): string[] {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (typeof details !== 'object' || details === null || Object.keys(details).length === 0) return [`sent ${sent}: error.details is empty`];
  const keys = Object.keys(details);
  const names = (key: string) => key === field || key.startsWith(`${field}.`) || key.startsWith(`${field}[`);
  return keys.some(names) ? [] : [`sent ${sent}: error.details names ${keys.join(', ')}, not the field ${field}`];
}
