import type { Socket } from 'node:net';
import { type ErrorBody, type ErrorCode, errorCatalogue } from '../../shared/errors';

/** Node's parser errors that mean the request's headers were too large (past `--max-http-header-size`). */
const headerTooLarge = new Set(['HPE_HEADER_OVERFLOW', 'HPE_CHUNK_EXTENSIONS_OVERFLOW']);

/**
 * A request Node's HTTP parser refuses never reaches the app, and Node answers it with a bare status line. This
 * answers it as the app answers everything else: our `{code, message}` body with the security headers, then
 * closes the connection (the rest of what the client sent cannot be read as a request).
 */
export function answerClientErrors(headers: Readonly<Record<string, string>>) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A connection reset, or a request already answered: nothing can be written.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const code: ErrorCode = headerTooLarge.has(error.code ?? '') ? 'request/header-too-large' : 'request/malformed';
    const { status, message } = errorCatalogue[code];
    const body = JSON.stringify({ code, message } satisfies ErrorBody);
    const lines = [
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'Cache-Control: no-store',
      'Content-Type: application/json; charset=UTF-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  };
}
