import { deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

/**
 * Pictures for the tests, made in memory: real JPEG, PNG and WebP files drawn by sharp, and hand-written bytes for
 * the files no honest encoder writes (a decompression bomb, text under a picture's name, a picture cut short).
 */

/**
 * A picture of `width` × `height`: a diagonal gradient from saddle brown to cream, with a darker band every 64 pixels
 * so that a crop or a turn shows. Drawn pixel by pixel (quick even at 3000 × 2000), then encoded by sharp.
 */
function drawing(width: number, height: number): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const shade = (x + y) % 64 < 8 ? 0.8 : 1;
      const at = (y * width + x) * 3;
      pixels[at] = (138 + 107 * t) * shade;
      pixels[at + 1] = (90 + 140 * t) * shade;
      pixels[at + 2] = (43 + 160 * t) * shade;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

export function jpegPicture(width = 400, height = 300): Promise<Buffer> {
  return drawing(width, height).jpeg().toBuffer();
}

export function pngPicture(width = 400, height = 300): Promise<Buffer> {
  return drawing(width, height).png().toBuffer();
}

export function webpPicture(width = 400, height = 300): Promise<Buffer> {
  return drawing(width, height).webp().toBuffer();
}

/** A 400 × 300 JPEG whose EXIF says more than the shop should publish. */
export function jpegWithExif(): Promise<Buffer> {
  return drawing(400, 300)
    .withExif({ IFD0: { Copyright: 'Secret GPS place', Artist: 'The owner' } })
    .jpeg()
    .toBuffer();
}

/**
 * A JPEG stored 400 wide and 300 high whose EXIF orientation (6) says "turn 90° clockwise to show": as a camera held
 * upright writes it. Shown as meant, it is 300 wide and 400 high.
 */
export function jpegTakenUpright(): Promise<Buffer> {
  return drawing(400, 300).withMetadata({ orientation: 6 }).jpeg().toBuffer();
}

/**
 * An animated WebP of two 64 × 64 frames, red then blue. The frames must differ: the WebP encoder merges identical
 * frames, and a solid `create` with `pageHeight` comes out as a still picture.
 */
export async function animatedWebp(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 64, height: 64, channels: 3, background } })
      .png()
      .toBuffer();
  const frames = [await frame('#c0392b'), await frame('#2b5a8a')];
  return sharp(frames, { join: { animated: true } })
    .webp({ loop: 0 })
    .toBuffer();
}

/** The CRC-32 table of PNG (and zlib): Node 20 has no `zlib.crc32`. */
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A decompression bomb: a valid PNG of a few hundred bytes whose header claims 50,000 × 50,000 pixels of 8-bit RGB
 * (7.5 GB once decoded). Its one IDAT holds a single row; a decoder that trusted the header would set out to decode
 * (and maybe allocate) the lot before finding out. Other sizes make the same kind of file, to test the limits: one
 * that passes them is still refused, for the rows it lacks, once decoded.
 */
export function decompressionBomb(width = 50_000, height = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  // Compression, filter and interlace methods: 0, the only ones PNG defines (no interlacing).
  const row = deflateSync(Buffer.alloc(1 + 3 * width)); // a filter byte (none), then black pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', row),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Plain text, as a file named `horse.jpg` might hold. */
export function textNamedJpg(): Buffer {
  return Buffer.from('this is not a picture\n', 'utf8');
}

/** A real JPEG cut in half, as an interrupted upload leaves it: the header is whole, the image data is not. */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await jpegPicture();
  return whole.subarray(0, Math.floor(whole.length / 2));
}
