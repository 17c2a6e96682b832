// Requests no route answered: 405 when the path exists with another method, else 404, in the
// family's format.
import type { RequestHandler } from 'express';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { families } from './families.js';
import { HttpError } from './http-error.js';
import { requestLocals } from './locals.js';

export function unmatched(routes: readonly RouteDefinition[], basePath: string): RequestHandler {
  const patterns = routes.map((route) => ({
    method: route.method.toUpperCase(),
    regex: new RegExp(`^${basePath}${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  }));
  return (req, res, next) => {
    const codes = families[requestLocals(res).family].codes;
    const path = req.originalUrl.split('?')[0] ?? '';
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))];
    if (allowed.length > 0) {
      next(new HttpError(codes.methodNotAllowed, `${req.method} is not allowed here.`, undefined, { Allow: allowed.join(', ') }));
      return;
    }
    next(new HttpError(codes.notFound, `No route ${req.method} ${path}.`));
  };
}
