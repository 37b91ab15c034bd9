import type { Socket } from 'node:net';
import { type ErrorBody, type ErrorCode, errorCatalogue } from '../../shared/errors';

/** Node's parser errors that mean the request's headers were too large (past `--max-http-header-size`). */
const headerTooLarge = new Set(['HPE_HEADER_OVERFLOW', 'HPE_CHUNK_EXTENSIONS_OVERFLOW']);

/** Node's errors that mean the client has gone, or stopped sending halfway through a request: nobody to answer. */
const clientGone = new Set(['ECONNRESET', 'HPE_INVALID_EOF_STATE']);

/** What Node found wrong, as our error code. */
function codeOf(error: Error & { code?: string }): ErrorCode {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request/too-slow';
  return headerTooLarge.has(error.code ?? '') ? 'request/header-too-large' : 'request/malformed';
}

const statusLines: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * A request Node's HTTP parser refuses, or one that missed Node's deadlines (`requestPace` in input.ts), is answered
 * by Node with a bare status line. This answers it as the app answers everything else: our `{code, message}` body
 * with the security headers, then closes the connection (the rest of what the client sent cannot be read as a
 * request). As Node's own answer does, it writes nothing over an answer the app has begun.
 */
export function answerClientErrors(headers: Readonly<Record<string, string>>) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    const answering = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
    if (clientGone.has(error.code ?? '') || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const code = codeOf(error);
    const { status, message } = errorCatalogue[code];
    const body = JSON.stringify({ code, message } satisfies ErrorBody);
    const lines = [
      `HTTP/1.1 ${status} ${statusLines[status]}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'Cache-Control: no-store',
      'Content-Type: application/json; charset=UTF-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  };
}
