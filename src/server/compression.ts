import { extname } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * How the shop compresses what it sends of the built client (ADR 0028). One module for the build, which writes a
 * Brotli copy beside each file once (`x.js.br`: the highest quality takes a second for the whole client, too long
 * for every start), and for the server, which gzips at start and sends the copy a browser takes.
 */

/** Text files; pictures are compressed already. */
const compressibleExtensions = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.webmanifest']);

/** What the answer's `Content-Encoding` line costs: a compressed copy is sent only when it saves more than that. */
const encodingHeaderBytes = Buffer.byteLength('Content-Encoding: gzip\r\n');

export const brotliSuffix = '.br';

export function isCompressible(path: string): boolean {
  return compressibleExtensions.has(extname(path));
}

/** The compressed copy when it is smaller than the body by more than its header costs; otherwise none. */
function worthSending(body: Uint8Array, compressed: Buffer): Buffer | undefined {
  return compressed.length + encodingHeaderBytes < body.length ? compressed : undefined;
}

/** Brotli at `quality` (11, the highest, for files compressed once at build; lower for what is made per request). */
export function brotli(body: Uint8Array, quality = constants.BROTLI_MAX_QUALITY): Buffer {
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/** gzip at its highest level: for the built client it costs a few milliseconds at start. */
export function gzip(body: Uint8Array): Buffer {
  return gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
}

/** The gzip copy the server sends of a file to a browser that takes no Brotli; none when it sends it as it is. */
export function gzipped(path: string, body: Uint8Array): Buffer | undefined {
  return isCompressible(path) ? worthSending(body, gzip(body)) : undefined;
}

/** The Brotli copy of a file (the build's, or a page's made per request at a lower quality); none when it sends it as it is. */
export function brotlied(path: string, body: Uint8Array, quality?: number): Buffer | undefined {
  return isCompressible(path) ? worthSending(body, brotli(body, quality)) : undefined;
}

/**
 * The encodings a request's `Accept-Encoding` takes (RFC 9110 §12.5.3): the listed codings without `q=0`, and
 * those `*` stands for when it is listed with a non-zero weight.
 */
export function acceptedEncodings(header: string | undefined): { br: boolean; gzip: boolean } {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [coding = '', ...params] = part.toLowerCase().split(';');
    const name = coding.trim();
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const takes = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  return { br: takes('br'), gzip: takes('gzip') || takes('x-gzip') };
}
