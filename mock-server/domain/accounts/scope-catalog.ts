// The scope catalog of GET /private/scopes, derived from the contract's x-scope values (through
// the generated route table): each scope with the endpoints it opens.
export interface RouteScope {
  method: string;
  path: string;
  scope: string | null | undefined;
  summary?: string;
}

export interface ScopeEntry {
  scope: string;
  group: string;
  title: string;
  description: string;
  risk: 'low' | 'medium' | 'high';
  grantable: boolean;
  endpoints: string[];
}

// Scopes that move money or commit the client to an exchange (x-assumption of the Scope schema:
// reads are low, other writes medium, money-moving high).
const moneyMoving = /^exchange:orders:(create|confirm|cancel)$/;

/** Endpoints are written `METHOD <basePath><path>`; pass '' for paths relative to the server. */
export function scopeCatalog(routes: readonly RouteScope[], basePath: string): ScopeEntry[] {
  const byScope = new Map<string, string[]>();
  for (const route of routes) {
    if (typeof route.scope !== 'string') continue;
    const endpoints = byScope.get(route.scope) ?? [];
    endpoints.push(`${route.method.toUpperCase()} ${basePath}${route.path}`);
    byScope.set(route.scope, endpoints);
  }
  return [...byScope.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scope, endpoints]) => {
      const parts = scope.split(':');
      const action = parts.at(-1) ?? scope;
      const subject = parts.slice(1, -1).join(' ') || parts[0] || scope;
      return {
        scope,
        group: parts[0] ?? scope,
        title: `${capitalize(action)} ${subject}`.trim(),
        description: `Allows ${endpoints.join(', ')}.`,
        risk: action === 'read' ? 'low' : moneyMoving.test(scope) ? 'high' : 'medium',
        grantable: true,
        endpoints,
      };
    });
}

/** Every scope the contract declares (the default token has them all). */
export function allScopes(routes: readonly RouteScope[]): string[] {
  return [...new Set(routes.flatMap((r) => (typeof r.scope === 'string' ? [r.scope] : [])))].sort();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
