// The URL of one call: base URL + base path + the path template filled in + the query string.

export interface QuerySpec {
  name: string;
  commaSeparated: boolean;
}

export function buildUrl(
  baseUrl: string,
  basePath: string,
  template: string,
  pathValues: Record<string, string | number>,
  query: Record<string, unknown>,
  querySpecs: readonly QuerySpec[],
  operationId: string,
): URL {
  const path = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = pathValues[name];
    if (value === undefined) throw new TypeError(`${operationId}: missing path parameter ${name}`);
    const text = String(value);
    // URL parsing would resolve these as dot segments and call another resource.
    if (text === '.' || text === '..' || text === '') {
      throw new TypeError(`${operationId}: path parameter ${name} cannot be ${JSON.stringify(text)}`);
    }
    return encodeURIComponent(text);
  });
  const url = new URL(baseUrl.replace(/\/+$/, '') + basePath + path);
  const commaSeparated = new Set(querySpecs.filter((spec) => spec.commaSeparated).map((spec) => spec.name));
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      url.searchParams.append(name, scalar(value, name, operationId));
    } else if (commaSeparated.has(name)) {
      url.searchParams.append(name, value.map((item: unknown) => scalar(item, name, operationId)).join(','));
    } else {
      for (const item of value) url.searchParams.append(name, scalar(item, name, operationId));
    }
  }
  return url;
}

function scalar(value: unknown, name: string, operationId: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw new TypeError(`${operationId}: query parameter ${name} must be a string, number or boolean`);
}
