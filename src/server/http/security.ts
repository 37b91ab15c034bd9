import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './errors';

export function isHttps(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:';
}

const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The security headers of every response, computed once. The CSP allows no inline script and no third-party
 * origin. Strict-Transport-Security only when the shop is reached over https: on plain http it means nothing
 * to a browser, and sent from a test or development server on a shared host name it could pin that name.
 */
export function securityHeaders(publicUrl: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'Content-Security-Policy': contentSecurityPolicy,
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Origin-Agent-Cluster': '?1',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-DNS-Prefetch-Control': 'off',
    'X-Download-Options': 'noopen',
    'X-Frame-Options': 'DENY',
    'X-Permitted-Cross-Domain-Policies': 'none',
    'X-XSS-Protection': '0',
    ...(isHttps(publicUrl) ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  });
}

/** Paths whose answers are per user and must never be cached by the browser or a proxy. */
const uncachedPaths = /^\/(api(\/|\?|$)|healthz(\?|$))/;

/**
 * Puts the security headers on every response, and `Cache-Control: no-store` on the API's and /healthz's, by
 * setting them on Node's response before the app runs: computed once, and no answer of the app needs rebuilding
 * to carry them. Whatever the app sets itself (a page's or an asset's `Cache-Control`) takes their place.
 */
export function presetHeaders(publicUrl: string): (req: IncomingMessage, res: ServerResponse) => void {
  const headers = Object.entries(securityHeaders(publicUrl));
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (uncachedPaths.test(req.url ?? '')) res.setHeader('Cache-Control', 'no-store');
  };
}

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The origins a state-changing request may come from: PUBLIC_URL's, when it is set. When it is not (a shop on
 * one machine, development, tests), the server's own: localhost, 127.0.0.1 and [::1] on the port the request
 * arrived at, a fact of the connection. Never the Host header, which the client writes.
 */
function allowedOrigin(publicOrigin: string | undefined, origin: string, localPort: number | undefined): boolean {
  if (publicOrigin) return origin === publicOrigin;
  return ['localhost', '127.0.0.1', '[::1]'].some((host) => origin === `http://${host}:${localPort}`);
}

/**
 * Refuses state-changing API requests sent from another origin (CSRF), on top of SameSite cookies and the
 * JSON-only bodies that a cross-site form cannot send. `publicUrl` is PUBLIC_URL, or undefined when unset.
 */
export function sameOriginOnly(
  publicUrl: string | undefined,
  exempt: readonly string[] = [],
): MiddlewareHandler<{ Bindings: HttpBindings }> {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  return async (c, next) => {
    if (stateChanging.has(c.req.method) && !exempt.includes(c.req.path)) {
      const origin = c.req.header('origin');
      const foreign = origin
        ? !allowedOrigin(publicOrigin, origin, c.env.incoming?.socket.localPort)
        : c.req.header('sec-fetch-site') === 'cross-site';
      if (foreign) return errorResponse(c, 'request/cross-origin');
    }
    await next();
  };
}
