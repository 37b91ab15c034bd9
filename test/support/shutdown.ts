import { connect } from 'node:net';
import type { Client } from './client';
import type { TestServer } from './server';

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Splits what came back on one keep-alive connection into its responses (bodies left as sent; they hold no status line). */
function splitResponses(text: string): RawResponse[] {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part.startsWith('HTTP/1.1 '))
    .map((part) => {
      const end = part.indexOf('\r\n\r\n');
      return { status: Number(part.slice(9, 12)), head: part.slice(0, end), body: part.slice(end + 4) };
    });
}

/**
 * Begins a graceful shutdown of `server` while `client` has a connection open (a live stream keeps it busy,
 * so the shutdown cannot close it as idle), then sends GET `paths` on that connection. Resolves with every
 * response of the connection (the stream's first) once the server has closed it and finished shutting down.
 */
export async function requestsDuringShutdown(
  server: TestServer,
  client: Client,
  paths: string[],
): Promise<RawResponse[]> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (data) => {
    text += data;
  });
  const socketClosed = new Promise((resolve) => socket.on('close', resolve));
  await new Promise((resolve) => socket.on('connect', resolve));
  const head = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${client.cookieHeader}\r\n\r\n`;
  try {
    socket.write(head('/api/cart/stream'));
    for (let waited = 0; !text.includes('event: snapshot'); waited += 10) {
      if (waited > 5000) throw new Error(`no snapshot on the stream: ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const closed = server.close();
    // The shutdown ends the stream; requests that arrive on the connection after that are turned away.
    socket.write(paths.map(head).join(''));
    await Promise.race([
      socketClosed,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`connection still open: ${text}`)), 5000)),
    ]);
    await closed;
    return splitResponses(text);
  } finally {
    socket.destroy();
  }
}
