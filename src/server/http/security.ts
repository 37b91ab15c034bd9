import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { errorResponse } from './errors';

export function isHttps(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:';
}

/**
 * Security headers on every response; the CSP allows no inline script and no third-party origin.
 * Strict-Transport-Security only when the shop is reached over https: on plain http it means nothing to
 * a browser, and sent from a test or development server on a shared host name it could pin that name.
 */
export function securityHeaders(publicUrl: string): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    xFrameOptions: 'DENY',
    strictTransportSecurity: isHttps(publicUrl) ? 'max-age=31536000; includeSubDomains' : false,
  });
}

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses state-changing API requests sent from another origin (CSRF), on top of SameSite cookies
 * and the JSON-only bodies that a cross-site form cannot send.
 */
export function sameOriginOnly(publicUrl: string): MiddlewareHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return async (c, next) => {
    if (stateChanging.has(c.req.method)) {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      const ownOrigin = new URL(c.req.url).origin;
      const foreign = origin ? origin !== ownOrigin && origin !== publicOrigin : site === 'cross-site';
      if (foreign) return errorResponse(c, 'request/cross-origin');
    }
    await next();
  };
}

/** API answers are per-user and must never be cached by the browser or a proxy. */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.header('Cache-Control', 'no-store');
};
