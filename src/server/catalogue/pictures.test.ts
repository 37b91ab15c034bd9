import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import {
  animatedWebp,
  decompressionBomb,
  jpegPicture,
  jpegTakenUpright,
  jpegWithExif,
  pngPicture,
  textNamedJpg,
  truncatedJpeg,
  webpPicture,
} from '../../../test/support/pictures';
import { maxPicturePixels, type PictureFile, type PictureResult, processPicture } from './pictures';

const messages = {
  'not-a-picture': 'This file is not a JPEG, PNG or WebP picture.',
  'too-many-pixels': 'This picture is too large: at most 40 megapixels.',
  animated: 'Animated pictures are not taken: upload a still JPEG, PNG or WebP.',
};

/** The thumbnail and large picture of an accepted picture; fails the test on a refusal, saying why. */
async function accepted(bytes: Buffer): Promise<Extract<PictureResult, { ok: true }>> {
  const result = await processPicture(bytes);
  if (!result.ok) expect.fail(`refused: ${result.reason}`);
  return result;
}

/** Checks that a file is really a WebP of the size it claims, with no EXIF left in it. */
async function expectWebp(file: PictureFile, width: number, height: number): Promise<void> {
  expect({ contentType: file.contentType, width: file.width, height: file.height }).toEqual({
    contentType: 'image/webp',
    width,
    height,
  });
  expect(file.bytes.toString('latin1', 0, 4)).toBe('RIFF');
  expect(file.bytes.toString('latin1', 8, 12)).toBe('WEBP');
  const meta = await sharp(file.bytes).metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({
    format: 'webp',
    width,
    height,
    exif: undefined,
  });
}

function expectRefused(result: PictureResult, reason: keyof typeof messages): void {
  expect(result).toEqual({ ok: false, reason, message: messages[reason] });
}

describe('processPicture', () => {
  it.each([
    ['jpeg', jpegPicture],
    ['png', pngPicture],
    ['webp', webpPicture],
  ] as const)('makes a %s into a 320 × 320 WebP thumbnail and a large WebP, never enlarged', async (format, make) => {
    const result = await accepted(await make(400, 300));
    expect(result.format).toBe(format);
    await expectWebp(result.thumb, 320, 320);
    await expectWebp(result.large, 400, 300);
  });

  it('shrinks a large picture to fit within 1600 × 1600, keeping its proportions', async () => {
    const wide = await accepted(await jpegPicture(3000, 2000));
    await expectWebp(wide.thumb, 320, 320);
    await expectWebp(wide.large, 1600, 1067);
    const tall = await accepted(await webpPicture(1000, 2500));
    await expectWebp(tall.thumb, 320, 320);
    await expectWebp(tall.large, 640, 1600);
  });

  it('fills the thumbnail square even from a picture smaller than it', async () => {
    const result = await accepted(await pngPicture(200, 100));
    await expectWebp(result.thumb, 320, 320);
    await expectWebp(result.large, 200, 100);
  });

  it('strips the EXIF metadata (camera, copyright, GPS place) from both pictures', async () => {
    const upload = await jpegWithExif();
    expect((await sharp(upload).metadata()).exif?.toString('latin1')).toContain('Secret GPS place');
    const result = await accepted(upload);
    await expectWebp(result.thumb, 320, 320);
    await expectWebp(result.large, 400, 300);
    for (const file of [result.thumb, result.large]) {
      expect(file.bytes.toString('latin1')).not.toContain('Secret GPS place');
      expect((await sharp(file.bytes).metadata()).orientation).toBeUndefined();
    }
  });

  it('turns a picture upright as its EXIF orientation says', async () => {
    const upload = await jpegTakenUpright();
    expect(await sharp(upload).metadata()).toMatchObject({ width: 400, height: 300, orientation: 6 });
    const result = await accepted(upload);
    await expectWebp(result.large, 300, 400);
  });

  it.each([
    ['text named .jpg', () => textNamedJpg()],
    ['an empty file', () => Buffer.alloc(0)],
    [
      'a GIF',
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
          .gif()
          .toBuffer(),
    ],
    ['an SVG', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>')],
    ['a RIFF that is no WebP (a WAVE)', () => Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')],
    ['a PNG signature and then junk', () => Buffer.concat([decompressionBomb().subarray(0, 8), textNamedJpg()])],
    ['a JPEG start and then junk', () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), textNamedJpg()])],
  ])('refuses %s as not a picture', async (_, make) => {
    expectRefused(await processPicture(await make()), 'not-a-picture');
  });

  it('refuses a JPEG cut short, whose header alone is whole', async () => {
    const upload = await truncatedJpeg();
    // The header reads well, so the refusal comes from decoding the pixels, not from the first look.
    expect(await sharp(upload).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    expectRefused(await processPicture(upload), 'not-a-picture');
  });

  it('refuses an animated WebP', async () => {
    const upload = await animatedWebp();
    expect((await sharp(upload).metadata()).pages).toBe(2);
    expectRefused(await processPicture(upload), 'animated');
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(1000);
    const before = process.memoryUsage().rss;
    expectRefused(await processPicture(bomb), 'too-many-pixels');
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('takes at most 40 megapixels and 20,000 pixels a side', async () => {
    expect(maxPicturePixels).toBe(40_000_000);
    // Header-only PNGs: a size that passes the limits is refused later, as not a picture, for the rows it lacks.
    expectRefused(await processPicture(decompressionBomb(6_400, 6_251)), 'too-many-pixels');
    expectRefused(await processPicture(decompressionBomb(20_001, 1)), 'too-many-pixels');
    expectRefused(await processPicture(decompressionBomb(1, 20_001)), 'too-many-pixels');
    expectRefused(await processPicture(decompressionBomb(8_000, 5_000)), 'not-a-picture');
    expectRefused(await processPicture(decompressionBomb(20_000, 2)), 'not-a-picture');
    // A real picture at the side limit goes through.
    const strip = await accepted(await pngPicture(20_000, 10));
    await expectWebp(strip.large, 1600, 1);
  });

  it('sets sharp to keep no cache and use one thread per picture when loaded', async () => {
    sharp.cache(true);
    sharp.concurrency(2);
    vi.resetModules();
    await import('./pictures');
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, files: { max: 0 }, items: { max: 0 } });
    expect(sharp.concurrency()).toBe(1);
  });
});
