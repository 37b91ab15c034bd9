import { config } from 'zod';

/**
 * Zod's settings, for every module that builds schemas: each imports this file before it builds one. In a browser,
 * no compiled parsers: zod would otherwise probe for `new Function('')` as it builds its first object schema, and the
 * shop's Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') blocks that. Zod catches the throw and parses
 * without them, but the browser records a CSP violation on every page load (DevTools' Issues panel, a
 * `securitypolicyviolation` event, Lighthouse's Best Practices). `jitless` skips the probe. The server runs under no
 * CSP and keeps the compiled parsers.
 */
if (typeof document !== 'undefined') config({ jitless: true });
