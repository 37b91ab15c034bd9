import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncodings, brotli, brotlied, gzip, gzipped, isCompressible } from './compression';

describe('compression', () => {
  it.each([
    ['gzip, deflate, br, zstd', { br: true, gzip: true }],
    ['gzip, deflate', { br: false, gzip: true }],
    ['br;q=0, gzip', { br: false, gzip: true }],
    ['br;q=0.5, gzip;q=0', { br: true, gzip: false }],
    ['*', { br: true, gzip: true }],
    ['*;q=0, br', { br: true, gzip: false }],
    ['identity', { br: false, gzip: false }],
    ['', { br: false, gzip: false }],
    [undefined, { br: false, gzip: false }],
    ['BR, X-GZIP', { br: true, gzip: true }],
    ['br;q=nonsense', { br: false, gzip: false }],
    ['br ;q=1, gzip ; q=0', { br: true, gzip: false }],
  ])('Accept-Encoding %j takes %j', (header, taken) => {
    expect(acceptedEncodings(header)).toEqual(taken);
  });

  it('compresses text files, and nothing else', () => {
    expect(isCompressible('assets/a.js')).toBe(true);
    expect(isCompressible('index.html')).toBe(true);
    expect(isCompressible('pictures/a.webp')).toBe(false);
  });

  it('keeps a compressed copy only when it saves more than its Content-Encoding line costs', () => {
    // A small module of the build (as assets/dates-….js was, 500 bytes): Brotli makes it some 40% smaller.
    const module = Buffer.from(
      'function e(e,t){return new Date(e).toLocaleString(t,{dateStyle:`medium`,timeStyle:`short`})}'.repeat(5),
    );
    expect(brotlied('assets/a.js', module)?.length).toBeLessThan(module.length / 2);
    expect(gzipped('assets/a.js', module)?.length).toBeLessThan(module.length / 2);
    // Too short to gain: sent as it is.
    const tiny = Buffer.from('export{e as t};');
    expect(brotlied('assets/a.js', tiny)).toBeUndefined();
    expect(gzipped('assets/a.js', tiny)).toBeUndefined();
    expect(brotlied('pictures/a.webp', module)).toBeUndefined();
  });

  it('makes copies that decode to the same bytes', () => {
    const body = Buffer.from('Piaffe '.repeat(1000));
    expect(brotliDecompressSync(brotli(body)).equals(body)).toBe(true);
    expect(brotliDecompressSync(brotli(body, 5)).equals(body)).toBe(true);
    expect(gunzipSync(gzip(body)).equals(body)).toBe(true);
  });
});
