import { type SizeGuide, sizeGuideSchema } from '../../../shared/finding';

/** What splits the cells of a row as the owner types a size guide. */
const cellMark = '|';

/** A size guide as the owner's box shows it: its headings on the first line, a row a line, cells split by `|`. */
export function guideText(guide: SizeGuide | null): string {
  if (!guide) return '';
  return [guide.columns, ...guide.rows].map((row) => row.join(` ${cellMark} `)).join('\n');
}

/**
 * The size guide the owner typed, by the shared rules (src/shared/finding.ts): null for an empty box, or the first
 * problem. Empty lines are left out.
 */
export function parseGuide(text: string): { guide: SizeGuide | null } | { problem: string } {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { guide: null };
  const [columns = [], ...rows] = lines.map((line) => line.split(cellMark).map((cell) => cell.trim()));
  const result = sizeGuideSchema.safeParse({ columns, rows });
  if (result.success) return { guide: result.data };
  return { problem: result.error.issues[0]?.message ?? 'The size guide is not valid.' };
}

/** The hint under every size guide's box. */
export const guideHint =
  'The first line is the headings, then a line for each size; split the cells with |, like “M | 94 cm”.';
