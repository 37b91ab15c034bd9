import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import sharp from 'sharp';
import type { Db } from '../db/database';

export interface PictureSize {
  width: number;
  height: number;
}

/** How many pictures' sizes are kept: far more than a shop's pictures, and a few hundred kilobytes. */
const kept = 20_000;

/** An uploaded picture's URL (src/server/catalogue/product-pictures.ts): its hash, which changes with its content. */
const uploaded = /^\/media\/([0-9a-f]{64})\.webp$/;

/**
 * The width and height of a product's picture by its URL, for a link preview's `og:image:width` and `og:image:height`:
 * an uploaded picture's read from its header (sharp decodes no pixel for it), the built client's own pictures (the
 * stand-ins, the demo's drawings) likewise from their file. Each is read once: an uploaded picture's URL is its hash
 * and the built files never change while the server runs, so a size once read is right for as long as the server
 * runs. Undefined when there is no such picture (removed meanwhile) or it cannot be read.
 */
export function pictureSizes(db: Db, distDir: string) {
  const sizes = new Map<string, Promise<PictureSize | undefined>>();

  async function bytesOf(url: string): Promise<Buffer | undefined> {
    const id = uploaded.exec(url)?.[1];
    if (id !== undefined) {
      const row = await db.kysely.selectFrom('picture').select('bytes').where('id', '=', id).executeTakeFirst();
      return row ? Buffer.from(row.bytes) : undefined;
    }
    const path = normalize(join(distDir, url));
    if (!url.startsWith('/') || !path.startsWith(`${normalize(distDir)}${sep}`)) return undefined;
    return readFile(path).catch(() => undefined);
  }

  async function read(url: string): Promise<PictureSize | undefined> {
    const bytes = await bytesOf(url);
    if (!bytes) return undefined;
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    return width && height ? { width, height } : undefined;
  }

  return (url: string): Promise<PictureSize | undefined> => {
    const known = sizes.get(url);
    if (known) return known;
    const reading = read(url).catch(() => undefined);
    if (sizes.size >= kept) sizes.delete(sizes.keys().next().value as string);
    sizes.set(url, reading);
    // A picture not found (yet) is asked again next time.
    reading.then((size) => {
      if (!size && sizes.get(url) === reading) sizes.delete(url);
    });
    return reading;
  };
}
