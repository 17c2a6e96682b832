// Counts the outcome of every request an authenticated v3 key makes (requests, errors, billable
// units, duration per operation), which GET /private/usage reports. Recorded when the response
// has been written, so refusals after authentication (429, bad signatures) count as errors.
import type { RequestHandler } from 'express';
import type { Sandbox } from '../sandbox.js';
import { requestLocals } from './locals.js';

export function recordUsage(sandbox: Sandbox, operationId: string): RequestHandler {
  return (_req, res, next) => {
    const locals = requestLocals(res);
    const key = locals.key;
    if (key !== undefined) {
      // `on`, not `once`: a response finishes once, and once's wrapper and its removal were per-request garbage.
      res.on('finish', () => {
        const failed = res.statusCode >= 400;
        const durationMs = performance.now() - locals.startedAt;
        sandbox.usage.count(key.id, operationId, { error: failed, billable: !failed, durationMs });
      });
    }
    next();
  };
}
