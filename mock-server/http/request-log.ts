// One log line per request: method, path, status, duration and request id. A line is built
// from those fields only, never from headers, the query string or a body, so no token, HMAC
// signature, API secret or webhook secret can reach the log.
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { exchangeV3HeaderNames } from '../../generated/exchange-v3/contract-data.js';

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    const path = req.originalUrl.split('?', 1)[0];
    const line = (aborted: boolean) => {
      const requestId = res.getHeader(exchangeV3HeaderNames.XRequestId);
      const fields = {
        method: req.method,
        path,
        status: aborted ? null : res.statusCode,
        ms: Math.round((performance.now() - startedAt) * 10) / 10,
        reqId: typeof requestId === 'string' ? requestId : null,
        ...(aborted ? { aborted: true } : {}),
      };
      const message = `${req.method} ${path} ${aborted ? 'aborted' : res.statusCode} ${fields.ms}ms ${fields.reqId ?? ''}`.trimEnd();
      if (!aborted && res.statusCode >= 500) logger.error(fields, message);
      else logger.info(fields, message);
    };
    res.once('finish', () => line(false));
    res.once('close', () => {
      if (!res.writableFinished) line(true);
    });
    next();
  };
}
