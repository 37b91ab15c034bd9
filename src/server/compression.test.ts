import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncodings, brotli, gzip, isCompressible } from './compression';

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

  it('compresses text files over 1 KB, and nothing else', () => {
    expect(isCompressible('assets/a.js', 1025)).toBe(true);
    expect(isCompressible('assets/a.js', 1024)).toBe(false);
    expect(isCompressible('pictures/a.webp', 50_000)).toBe(false);
    expect(isCompressible('index.html', 5000)).toBe(true);
  });

  it('makes copies that decode to the same bytes', () => {
    const body = Buffer.from('Piaffe '.repeat(1000));
    expect(brotliDecompressSync(brotli(body)).equals(body)).toBe(true);
    expect(brotliDecompressSync(brotli(body, 5)).equals(body)).toBe(true);
    expect(gunzipSync(gzip(body)).equals(body)).toBe(true);
  });
});
