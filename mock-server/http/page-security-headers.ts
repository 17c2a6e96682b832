// The security headers of the mock's own web pages (the inspector, /docs). A shared sandbox's
// tenants put strings into everything those pages show (order comments, webhook bodies a tenant's
// receiver answered, file names...), and the inspector holds buttons that drive every tenant's
// records. So:
// - Content-Security-Policy: scripts and styles from the mock only, no inline script, no plugin,
//   no <base>, requests to the mock only. Should a tenant's string ever reach the page as markup,
//   it cannot run script or send anything elsewhere.
// - frame-ancestors 'none' (and X-Frame-Options for browsers without it): no page of another
//   origin can frame the inspector and have the operator click its buttons under a decoy.
// - X-Content-Type-Options: nosniff: an answer is read as what it says it is, never as script.
import type { RequestHandler } from 'express';

export interface PagePolicy {
  /** Whether style="" attributes may be used (Swagger UI and the machines' legend set them). */
  inlineStyles: boolean;
}

export function pageSecurityHeaders({ inlineStyles }: PagePolicy): RequestHandler {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}
