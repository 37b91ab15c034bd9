import sharp, { type Metadata, type Sharp } from 'sharp';

/**
 * The owner's uploaded picture, made into the shop's thumbnail and large picture. The upload is untrusted bytes: what
 * they are is decided by their content (magic bytes, then the decoder's own reading of the header), never by a file
 * name or a declared type, and their size is checked from the header before a single pixel is decoded, so that a
 * small file claiming billions of pixels (a "decompression bomb") costs nothing.
 */

/** A picture as the shop serves it: a WebP with no metadata (no EXIF, so no camera details or GPS place). */
export interface PictureFile {
  bytes: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

export type PictureResult =
  | { ok: true; thumb: PictureFile; large: PictureFile; format: 'jpeg' | 'png' | 'webp' }
  | { ok: false; reason: 'not-a-picture' | 'too-many-pixels' | 'animated'; message: string };

/** The most pixels (width × height) a picture may have before it is decoded. */
export const maxPicturePixels = 40_000_000;

/** The longest side a picture may have, whatever its pixel count (a 30,000 × 10 strip is no product picture). */
const maxSide = 20_000;

/** The thumbnail is a square, twice the 160 × 160 square of the home page, for screens of double density. */
const thumbSide = 320;

/** The large picture fits in this square; a smaller picture keeps its size. */
const largeSide = 1600;

const quality = 80;

// Sharp's operation cache keeps recent images in memory for reuse; the shop never processes the same upload twice,
// so it would only hold memory. One libvips thread per image: the shop runs on a small server of 2 cores, and an
// upload is rare enough that bounded memory and a free core for the shop's requests matter more than speed.
sharp.cache(false);
sharp.concurrency(1);

/** Messages for the owner, shown next to the picture field. */
const messages = {
  'not-a-picture': 'This file is not a JPEG, PNG or WebP picture.',
  'too-many-pixels': `This picture is too large: at most ${maxPicturePixels / 1_000_000} megapixels.`,
  animated: 'Animated pictures are not taken: upload a still JPEG, PNG or WebP.',
} as const;

type Format = 'jpeg' | 'png' | 'webp';
type Refusal = Extract<PictureResult, { ok: false }>;

function refuse(reason: Refusal['reason']): Refusal {
  return { ok: false, reason, message: messages[reason] };
}

/** The format that the first bytes announce, or null for anything else (GIF, SVG, HEIC, PDF, text…). */
function formatOf(bytes: Buffer): Format | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Encodes one output of the pipeline as a WebP (sharp writes no metadata unless asked to). */
async function webp(pipeline: Sharp): Promise<PictureFile> {
  const { data, info } = await pipeline.webp({ quality }).toBuffer({ resolveWithObject: true });
  return { bytes: data, contentType: 'image/webp', width: info.width, height: info.height };
}

/**
 * Checks an uploaded picture and makes its thumbnail (320 × 320, cropped to fill the square) and its large picture
 * (within 1600 × 1600, never enlarged), both WebP, turned upright as the camera's EXIF orientation says, with no
 * metadata. A refusal carries the reason and a message for the owner.
 */
export async function processPicture(bytes: Buffer): Promise<PictureResult> {
  const format = formatOf(bytes);
  if (!format) return refuse('not-a-picture');

  // The header only: no pixel is decoded here, so no pixel limit is needed yet (the size is checked just below,
  // with a message of our own). `failOn: 'error'` refuses a malformed header.
  let header: Metadata;
  try {
    header = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    return refuse('not-a-picture');
  }
  // libvips picks its decoder by sniffing the bytes itself: it must have picked the one for the format the first
  // bytes announce, so that the pixels are only ever decoded by the JPEG, PNG or WebP decoder.
  if (header.format !== format) return refuse('not-a-picture');
  const { width, height } = header;
  if (width > maxSide || height > maxSide || width * height > maxPicturePixels) return refuse('too-many-pixels');
  // An animated WebP reports its frame count in `pages` (and the first frame's size as width and height). An APNG
  // reports none: libvips reads it as its first frame, a still picture, which is taken as such.
  if ((header.pages ?? 1) > 1) return refuse('animated');

  try {
    // The decoder enforces the pixel limit too, a second guard should the check above ever be loosened.
    // `failOn: 'error'` refuses truncated or corrupt data rather than filling the missing rows with grey.
    // `.rotate()` with no angle turns the picture upright as its EXIF orientation says.
    const upright = () => sharp(bytes, { failOn: 'error', limitInputPixels: maxPicturePixels }).rotate();
    // Two pipelines, one after the other rather than at once: one decoding at a time. (Not `clone()`, which copies
    // the input bytes.)
    const thumb = await webp(upright().resize(thumbSide, thumbSide, { fit: 'cover' }));
    const large = await webp(upright().resize(largeSide, largeSide, { fit: 'inside', withoutEnlargement: true }));
    return { ok: true, thumb, large, format };
  } catch {
    return refuse('not-a-picture');
  }
}
