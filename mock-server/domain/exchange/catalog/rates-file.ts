// The public rates file (GET /public/rates.xml): the BestChange format the contract describes,
// one <item> per enabled route. A course below 1 is written the way rate monitors expect, as
// `in` units of the give side for 1 unit of the receive side.
import { compare, divide, formatDecimal, parseDecimal, roundSignificant } from '../../../decimal.js';
import { courseDigits, isManual } from './catalog-records.js';
import { routeVerifications } from './route-capabilities.js';
import type { RouteState } from './route-state.js';

const one = parseDecimal('1');

export function ratesXml(states: readonly RouteState[]): string {
  const items = states.filter((s) => s.enabled).map(rateItem);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rates>\n${items.join('')}</rates>\n`;
}

function rateItem(state: RouteState): string {
  const { route, limits } = state;
  const course = parseDecimal(state.course);
  const [rateIn, rateOut] =
    compare(course, one) >= 0 ? ['1', state.course] : [formatDecimal(roundSignificant(divide(one, course, 18, 'up'), courseDigits, 0, 'up')), '1'];
  const fields: [string, string][] = [
    ['from', route.from.spec.letter],
    ['to', route.to.spec.letter],
    ['in', rateIn],
    ['out', rateOut],
    ['amount', limits.reserve],
    ['minamount', `${limits.min_give} ${route.from.spec.currency.code}`],
    ['maxamount', `${limits.max_give} ${route.from.spec.currency.code}`],
  ];
  const params = rateParams(state);
  if (params.length > 0) fields.push(['param', params.join(', ')]);
  return `  <item>\n${fields.map(([name, value]) => `    <${name}>${escapeXml(value)}</${name}>\n`).join('')}  </item>\n`;
}

/** BestChange flags: manual processing, floating rate, identity and card verification. */
function rateParams(state: RouteState): string[] {
  const { route } = state;
  const needs = routeVerifications(route);
  const params: string[] = [];
  if (isManual(route)) params.push('manual');
  if (route.rateType === 'floating') params.push('floating');
  if (needs.identity) params.push('verifying');
  if (needs.card) params.push('cardverify');
  return params;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
