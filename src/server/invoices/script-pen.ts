/**
 * Text in every script for the invoice and credit note PDFs (docs/product.md §20, ADR 0048). pdfkit's built-in
 * Helvetica writes Windows-1252 only; this pen embeds Noto fonts (their files found through their packages at run
 * time, from the sources as from dist-server/) and picks, for each character, the first font that has its glyph: Noto
 * Sans's unicode-range files (Latin, Latin Extended, Greek, Cyrillic, Vietnamese), then Noto Sans Hebrew and Noto
 * Naskh Arabic. A character that none draws (Chinese, Japanese, Korean, an emoji) is printed as the replacement
 * character '�', the rest of its line as written. Right-to-left text is laid out by the Unicode bidirectional
 * algorithm (bidi-js) and shaped by fontkit (Arabic letters joined), so that a reader extracts each right-to-left run
 * in its logical order.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { fonts as arabicFonts } from '@embedpdf/fonts-arabic';
import bidiFactory from 'bidi-js';
import * as fontkit from 'fontkit';

export type Weight = 'regular' | 'bold';

/** One font, as the PDF names it; the key pdfkit opens it by (see parsedFormat); whether it is right to left. */
interface Face {
  readonly name: string;
  readonly key: Buffer;
  readonly font: fontkit.Font;
  readonly rightToLeft: boolean;
}

const require = createRequire(import.meta.url);

/** A unicode-range subset of a Fontsource package (which splits each font by script: a file has no other's glyphs). */
function fontsource(pkg: string, subset: string, rightToLeft = false) {
  return (weight: number) => {
    const name = `${pkg.replace('@fontsource/', '')}-${subset}-${weight}-normal`;
    return { name, bytes: sfntOf(readFileSync(require.resolve(`${pkg}/files/${name}.woff`))), rightToLeft };
  };
}

/**
 * Noto Naskh Arabic as Noto's own build (in @embedpdf/fonts-arabic): one glyph for each letter's form. Google Fonts'
 * builds of Noto's Arabic fonts (Fontsource's, Expo's) draw a dotted letter as its dotless base and its dots, so that
 * ش is drawn with the glyph of س: a PDF maps each glyph to one text, and a reader would read one of the two wrong.
 */
function arabic(weight: number) {
  const file = arabicFonts.find((font) => font.weight === weight)?.file;
  if (file === undefined) throw new Error(`@embedpdf/fonts-arabic has no weight ${weight}`);
  const folder = join(dirname(require.resolve('@embedpdf/fonts-arabic')), '..', 'fonts');
  return { name: `noto-naskh-arabic-${weight}`, bytes: readFileSync(join(folder, file)), rightToLeft: true };
}

/** The fonts in the order a character looks for its glyph. */
const sources = [
  ...['latin', 'latin-ext', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'vietnamese'].map((subset) =>
    fontsource('@fontsource/noto-sans', subset),
  ),
  fontsource('@fontsource/noto-sans-hebrew', 'hebrew', true),
  arabic,
];
const weights: Record<Weight, number> = { regular: 400, bold: 700 };

/**
 * A WOFF file as the TrueType font it packs, each table inflated once (node:zlib): fontkit inflates a WOFF's table in
 * JavaScript each time it reads it (a glyph's outline: the whole glyf table), which made a typical invoice take 140 ms
 * rather than 11 (ADR 0048).
 */
function sfntOf(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + 20 * i;
    const offset = woff.readUInt32BE(at + 4);
    const stored = woff.subarray(offset, offset + woff.readUInt32BE(at + 8));
    const length = woff.readUInt32BE(at + 12);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: stored.length < length ? inflateSync(stored) : stored,
    };
  });
  const selector = Math.floor(Math.log2(count));
  const directory = Buffer.alloc(12 + 16 * count);
  directory.writeUInt32BE(woff.readUInt32BE(4), 0);
  directory.writeUInt16BE(count, 4);
  directory.writeUInt16BE(16 * 2 ** selector, 6);
  directory.writeUInt16BE(selector, 8);
  directory.writeUInt16BE(16 * (count - 2 ** selector), 10);
  const parts = [directory];
  let offset = directory.length;
  tables.forEach(({ tag, checksum, data }, i) => {
    directory.writeUInt32BE(tag, 12 + 16 * i);
    directory.writeUInt32BE(checksum, 16 + 16 * i);
    directory.writeUInt32BE(offset, 20 + 16 * i);
    directory.writeUInt32BE(data.length, 24 + 16 * i);
    // Each table starts on a 4-byte boundary.
    const padded = Buffer.alloc((data.length + 3) & ~3);
    data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/**
 * Each font is parsed once per process, and pdfkit is handed a key to it in place of its bytes: pdfkit opens a
 * document's fonts with fontkit from their bytes, and parsing a font's layout tables anew in each PDF (5 to 9 ms a
 * font) was most of an invoice's time (ADR 0048). The key is a font format of its own for fontkit (`registerFormat`,
 * probed after fontkit's formats, which a key is none of), which hands pdfkit the parsed font with its cache of glyphs
 * emptied: fontkit keeps each glyph with the characters it was first made for, and pdfkit maps a glyph to those in the
 * PDF's text, so that a PDF made after others would not be the same bytes as one made first. A PDF is made in one go
 * (invoicePdf does not wait), so no other opens the font meanwhile. Each PDF's subset of glyphs is its own.
 */
const keyPrefix = 'piaffe-parsed-font:';
const parsed = new Map<string, fontkit.Font>();
const keyOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
function parsedFormat(stream: { buffer: Uint8Array }): fontkit.Font {
  const font = parsed.get(keyOf(stream.buffer));
  if (font === undefined) throw new Error('not a font script-pen.ts parsed');
  (font as unknown as { _glyphs: object })._glyphs = {};
  return font;
}
parsedFormat.probe = (bytes: Uint8Array) => keyOf(bytes.subarray(0, keyPrefix.length)) === keyPrefix;
// fontkit's own function (its types do not declare it).
(fontkit as unknown as { registerFormat(format: unknown): void }).registerFormat(parsedFormat);

function loadFaces(weight: Weight): Face[] {
  return sources.map((source) => {
    const { name, bytes, rightToLeft } = source(weights[weight]);
    const font = fontkit.create(bytes);
    if (!('hasGlyphForCodePoint' in font)) throw new Error(`${name} is a font collection`);
    const key = Buffer.from(`${keyPrefix}${name}`, 'latin1');
    parsed.set(keyOf(key), font);
    return { name, key, font, rightToLeft };
  });
}

let faces: Record<Weight, Face[]> | undefined;
/** The faces of a weight, read once per process, when the first PDF is made. */
function facesOf(weight: Weight): Face[] {
  faces ??= { regular: loadFaces('regular'), bold: loadFaces('bold') };
  return faces[weight];
}

let bidi: ReturnType<typeof bidiFactory> | undefined;

/** What a reader sees in place of a character that no font here draws. */
const replacement = '\uFFFD';
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** Invisible by definition (a joiner, a variation selector, a bidirectional mark): dropped unless the font has it. */
const ignorable = /\p{Default_Ignorable_Code_Point}/u;
/**
 * Letters that fontkit lays out right to left by itself (it reverses a run of a right-to-left script), of the scripts
 * the faces draw.
 */
const rightToLeftScript = /[\p{Script=Hebrew}\p{Script=Arabic}]/u;

/** A user-perceived character as it is drawn: its text, the face that has its glyphs, its bidi level. */
interface Cluster {
  readonly text: string;
  readonly face: Face;
  readonly level: number;
  readonly space: boolean;
}

const visibleOf = (text: string) => [...text].filter((c) => !ignorable.test(c));
const draws = (face: Face, characters: readonly string[]) =>
  characters.every((c) => face.font.hasGlyphForCodePoint(c.codePointAt(0) as number));

/** A line's clusters, in logical order: each the first face that has all its glyphs (the one before it if it has). */
function clustersOf(text: string, weight: Weight): Cluster[] {
  bidi ??= bidiFactory();
  const { levels } = bidi.getEmbeddingLevels(text);
  const list = facesOf(weight);
  const clusters: Cluster[] = [];
  let current = list[0] as Face;
  const faceOf = (visible: readonly string[]) =>
    draws(current, visible) ? current : list.find((f) => draws(f, visible));
  for (const { segment, index } of segmenter.segment(text)) {
    const level = levels[index] ?? 0;
    // Right to left, a bracket is drawn as its mirror image (rule L4): '(' opens on the right, as ')' looks.
    const written = (level % 2 === 1 && bidi.getMirroredCharacter(segment)) || segment;
    // A letter and its accent typed apart ('e' and U+0301) are in two files of Noto Sans: composed, one glyph.
    const composed = faceOf(visibleOf(written)) ? written : written.normalize('NFC');
    const visible = visibleOf(composed);
    if (visible.length === 0) continue;
    const face = faceOf(visible);
    if (face === undefined) {
      current = list[0] as Face;
      clusters.push({ text: replacement, face: current, level, space: false });
      continue;
    }
    current = face;
    const drawn = [...composed].filter((c) => !ignorable.test(c) || draws(face, [c]));
    clusters.push({ text: drawn.join(''), face, level, space: /^\s+$/u.test(segment) });
  }
  return clusters;
}

/** A run of one face and one bidi level, in the order pdfkit must be given it. */
interface Run {
  readonly face: Face;
  readonly text: string;
}

/**
 * A line's runs in visual order, left to right (the rule L2 of the bidirectional algorithm: from the highest level to
 * the lowest odd one, each sequence at that level or above reversed). fontkit reverses a run of Hebrew or Arabic by
 * itself, shaping it in its logical order: such a run is handed over reversed, so that it comes out in visual order.
 */
function visualRuns(line: readonly Cluster[]): Run[] {
  const order = line.map((_, i) => i);
  const levels = line.map((c) => c.level);
  const highest = Math.max(...levels);
  const lowest = Math.min(...levels);
  for (let level = highest; level >= (lowest % 2 === 1 ? lowest : lowest + 1); level--) {
    for (let start = 0; start < order.length; start++) {
      if ((levels[order[start] as number] as number) < level) continue;
      let end = start;
      while (end + 1 < order.length && (levels[order[end + 1] as number] as number) >= level) end++;
      order.splice(start, end - start + 1, ...order.slice(start, end + 1).reverse());
      start = end;
    }
  }
  const runs: Cluster[][] = [];
  for (const i of order) {
    const cluster = line[i] as Cluster;
    const last = runs.at(-1);
    const previous = last?.at(-1);
    if (last && previous && previous.face === cluster.face && previous.level === cluster.level) last.push(cluster);
    else runs.push([cluster]);
  }
  return runs.map((run) => {
    const first = run[0] as Cluster;
    const visual = run.map((c) => c.text);
    // fontkit reverses a run by its script alone: Hebrew or Arabic letters (in logical order in the line, odd level),
    // and Arabic-Indic digits too (left to right, even level), which it would print backwards if not handed reversed.
    const reversedByFontkit = visual.some((t) => rightToLeftScript.test(t));
    return { face: first.face, text: (reversedByFontkit ? visual.reverse() : visual).join('') };
  });
}

export interface TextOptions {
  /** The width to wrap at; the page's width right of x within its margin if not given, as pdfkit's. */
  readonly width?: number;
  readonly align?: 'left' | 'right';
}

/** Laid out as one whole, not word by word: a right-to-left run is reversed as a whole (see visualRuns). */
const wholeRun = { features: [] as PDFKit.Mixins.OpenTypeFeatures[] };

/**
 * Writes text into a pdfkit document in any script, as `doc.text` does: at x and y (the document's position if not
 * given), wrapped at the width, and leaves the position below it. Text in one face and left to right (all text in
 * Latin) is pdfkit's to write, as it always was; other text is wrapped here, in its logical order, then each line
 * drawn run by run in its visual order on one baseline (pdfkit's wrapping would cut a right-to-left line from its
 * visual left, its logical end, and set each face's run on that face's own ascent).
 */
export class ScriptPen {
  private weight: Weight = 'regular';
  private size = 12;
  private readonly used = new Set<Face>();

  constructor(private readonly doc: PDFKit.PDFDocument) {}

  /** The weight and size of what is written next. */
  style(weight: Weight, size?: number): this {
    this.weight = weight;
    if (size !== undefined) this.size = size;
    this.use(this.main());
    return this;
  }

  text(text: string, x?: number, y?: number, options: TextOptions = {}): this {
    const { doc } = this;
    const left = x ?? doc.x;
    const top = y ?? doc.y;
    const width = options.width ?? doc.page.width - left - doc.page.margins.right;
    const paragraphs = text.split(/\r?\n/).map((paragraph) => clustersOf(paragraph, this.weight));
    const face = paragraphs.flat()[0]?.face ?? this.main();
    if (paragraphs.every((paragraph) => paragraph.every((c) => c.face === face && c.level % 2 === 0))) {
      this.use(face).text(
        paragraphs.map((paragraph) => paragraph.map((c) => c.text).join('')).join('\n'),
        left,
        top,
        options.align ? { width, align: options.align } : { width },
      );
      this.use(this.main());
      return this;
    }
    doc.y = top;
    for (const paragraph of paragraphs) {
      for (const line of this.wrap(paragraph, width)) this.line(line, left, width, options.align ?? 'left');
    }
    this.use(this.main());
    doc.x = left;
    return this;
  }

  /**
   * Ends the document. A glyph that stands for several characters (Arabic's lam-alef, a letter with its marks) is
   * mapped to them in the order they are drawn, right to left, in a Hebrew or Arabic font: readers (pdf.js, Poppler)
   * read a right-to-left run's glyphs from the left and turn the whole around, each glyph's characters with it. In the
   * logical order pdfkit gives them, 'السلام' read back as 'السالم'.
   */
  end(): void {
    const fonts = (this.doc as unknown as { _fontFamilies: Record<string, { unicode?: number[][] } | undefined> })
      ._fontFamilies;
    for (const face of this.used) {
      if (!face.rightToLeft) continue;
      const unicode = fonts[face.name]?.unicode ?? [];
      unicode.forEach((codePoints, glyph) => {
        if (codePoints.length > 1) unicode[glyph] = [...codePoints].reverse();
      });
    }
    this.doc.end();
  }

  private main(): Face {
    return facesOf(this.weight)[0] as Face;
  }

  private use(face: Face): PDFKit.PDFDocument {
    if (!this.used.has(face)) {
      this.doc.registerFont(face.name, face.key);
      this.used.add(face);
    }
    return this.doc.font(face.name).fontSize(this.size);
  }

  /** The width of clusters in logical order, each face's stretch as it is shaped. */
  private widthOf(clusters: readonly Cluster[]): number {
    let width = 0;
    for (let start = 0; start < clusters.length; ) {
      const face = (clusters[start] as Cluster).face;
      let end = start;
      while (end < clusters.length && (clusters[end] as Cluster).face === face) end++;
      const text = clusters
        .slice(start, end)
        .map((c) => c.text)
        .join('');
      width += this.use(face).widthOfString(text, wholeRun);
      start = end;
    }
    return width;
  }

  /** A paragraph's lines, broken after spaces where they fit the width (a word wider than it, between characters). */
  private wrap(paragraph: readonly Cluster[], width: number): Cluster[][] {
    const lines: Cluster[][] = [];
    let line: Cluster[] = [];
    let i = 0;
    while (i < paragraph.length) {
      let end = i;
      while (end < paragraph.length && !(paragraph[end] as Cluster).space) end++;
      const word = paragraph.slice(i, end);
      let spaces = end;
      while (spaces < paragraph.length && (paragraph[spaces] as Cluster).space) spaces++;
      if (line.length > 0 && this.widthOf([...line, ...word]) > width) {
        lines.push(line);
        line = [];
      }
      if (line.length === 0) {
        // A word wider than the line: as many of its characters as fit, at least one, on each line.
        while (word.length > 0 && this.widthOf(word) > width) {
          let fit = 1;
          while (fit < word.length && this.widthOf(word.slice(0, fit + 1)) <= width) fit++;
          lines.push(word.splice(0, fit));
        }
      }
      line.push(...word, ...paragraph.slice(end, spaces));
      i = spaces;
    }
    lines.push(line);
    // Spaces at a line's end are not drawn (and would count against its right alignment).
    return lines.map((l) => {
      let end = l.length;
      while (end > 0 && (l[end - 1] as Cluster).space) end--;
      return l.slice(0, end);
    });
  }

  /** One line at the document's y: its runs left to right on the main face's baseline; then y moves below it. */
  private line(line: readonly Cluster[], left: number, width: number, align: 'left' | 'right') {
    const { doc } = this;
    const top = doc.y;
    const main = this.main();
    const ascent = (main.font.ascent / main.font.unitsPerEm) * this.size;
    const runs = visualRuns(line).map((run) => ({
      ...run,
      width: this.use(run.face).widthOfString(run.text, wholeRun),
    }));
    const total = runs.reduce((sum, run) => sum + run.width, 0);
    let x = align === 'right' ? left + width - total : left;
    for (const run of runs) {
      this.use(run.face).text(run.text, x, top, { ...wholeRun, lineBreak: false, baseline: -ascent });
      x += run.width;
    }
    this.use(main);
    doc.y = top + doc.currentLineHeight(true);
  }
}
