import type { z } from 'zod';
import { endpoints } from '../../shared/api';
import { productLimits } from '../../shared/limits';

/** The least a route reading JSON takes: a small form's body never needs more, and a route may take more (below). */
export const maxBodyBytes = 16 * 1024;

const limits = new WeakMap<z.ZodType, number>();

/**
 * The largest body a route whose body is valid for `schema` reads: the largest JSON of a value the schema accepts
 * (`largestJsonBytes`), and at least `maxBodyBytes`. One source for both: a bound added to the schema moves the
 * route's limit with it. A schema with no bound is a mistake (every route's is bounded; body-size.test.ts checks).
 */
export function bodyLimitOf(schema: z.ZodType): number {
  let limit = limits.get(schema);
  if (limit === undefined) {
    const largest = largestJsonBytes(schema);
    if (!Number.isFinite(largest)) throw new Error('A route body with no largest size: bound its schema.');
    limit = Math.max(maxBodyBytes, largest);
    limits.set(schema, limit);
  }
  return limit;
}

/**
 * The largest body any route reads: the largest of the JSON bodies of `endpoints` (the shop's settings, with 40
 * shipping zones of 250 countries of 100 regions each, about 9.4 MiB) and a picture (5 MiB). Stripe's webhook reads
 * at most 64 KiB. Node's deadline for a whole request follows it (`requestPace` in input.ts).
 */
export function largestRequestBytes(): number {
  const bodies = Object.values(endpoints).flatMap((spec) => ('body' in spec ? [bodyLimitOf(spec.body)] : []));
  return Math.max(productLimits.pictureMaxBytes, ...bodies);
}

/**
 * The most bytes the JSON of a value `schema` accepts can take, read from the schema's own bounds (each string's
 * longest length or pattern, each array's most items, each number's range): what a route's request body may need
 * (docs/SECURITY.md, "Limits on requests"). Infinity when a part of it has no bound.
 *
 * The JSON counted is the value's as `JSON.stringify` writes it: no spaces, every field of an object present, each
 * character of a string at its largest in UTF-8, `jsonCharBytes` (an escaped `\"` or `\\` or `\n` takes 2), or at
 * its pattern's own when a simple pattern bounds it (a region code: six ASCII characters). Only the value's own
 * fields count: a plain (not strict) object drops the others. Refinements (`superRefine`) only narrow what is
 * accepted, so they leave the bound as it is.
 */
export function largestJsonBytes(schema: z.ZodType): number {
  return largest(schema as unknown as Schema, new Set());
}

/** UTF-8's most bytes for one UTF-16 unit (a character of the BMP); a pair of them, 4 bytes, is less than two. */
export const jsonCharBytes = 3;

/** The longest JSON number: `-0.0000012345678901234567` (between 1e-7 and 1e-6 it is written without an exponent). */
const numberBytes = 25;
/** Number.MIN_SAFE_INTEGER's digits and sign. */
const safeIntegerBytes = String(Number.MIN_SAFE_INTEGER).length;

/** What this module reads of a zod schema: its definition (zod's `_zod.def`, the same for every zod 4 schema). */
interface Schema {
  _zod: { def: Definition };
}
interface Definition {
  type: string;
  checks?: { _zod: { def: Check } }[];
  [key: string]: unknown;
}
interface Check {
  check: string;
  maximum?: number;
  length?: number;
  value?: number | bigint;
  format?: string;
  pattern?: RegExp;
}

function largest(schema: Schema, seen: Set<Schema>): number {
  if (seen.has(schema)) return Number.POSITIVE_INFINITY; // a recursive schema: no bound
  const def = schema._zod.def;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const inner = (key: string) => largest(def[key] as Schema, new Set([...seen, schema]));
  switch (def.type) {
    case 'string':
      return stringBytes(checks);
    case 'number':
      return numberBytesOf(checks, def);
    case 'boolean':
      return 'false'.length;
    case 'null':
      return 'null'.length;
    case 'literal':
      return Math.max(...(def.values as unknown[]).map((value) => JSON.stringify(value)?.length ?? 0));
    case 'enum':
      return Math.max(...Object.values(def.entries as Record<string, unknown>).map((v) => JSON.stringify(v).length));
    case 'optional':
    case 'nonoptional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return inner('innerType');
    case 'nullable':
      return Math.max(inner('innerType'), 'null'.length);
    case 'pipe':
      // The body is what comes in: a transform's input.
      return inner('in');
    case 'union':
      return Math.max(...(def.options as Schema[]).map((option) => largest(option, new Set([...seen, schema]))));
    case 'array': {
      const items = maxOf(checks, 'max_length', 'length_equals');
      return items === 0 ? 2 : 2 + items * (inner('element') + 1) - 1;
    }
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const fields = Object.entries(shape).map(
        ([key, value]) => JSON.stringify(key).length + 1 + largest(value, new Set([...seen, schema])),
      );
      return 2 + fields.reduce((sum, bytes) => sum + bytes, 0) + Math.max(fields.length - 1, 0);
    }
    default:
      // any, unknown, record, tuple, custom, lazy...: none of the routes' bodies, and no bound this module knows.
      return Number.POSITIVE_INFINITY;
  }
}

/** The most of `checks`' limits named `names` (length_equals's length, max_length's maximum); Infinity without one. */
function maxOf(checks: Check[], ...names: string[]): number {
  const bounds = checks
    .filter((check) => names.includes(check.check))
    .map((check) => (check.check === 'length_equals' ? check.length : check.maximum) ?? Number.POSITIVE_INFINITY);
  return Math.min(Number.POSITIVE_INFINITY, ...bounds);
}

function stringBytes(checks: Check[]): number {
  const byLength = maxOf(checks, 'max_length', 'length_equals') * jsonCharBytes;
  const byPattern = checks.flatMap((check) => (check.pattern ? [patternBytes(check.pattern)] : []));
  return 2 + Math.min(byLength, ...byPattern);
}

function numberBytesOf(checks: Check[], def: Definition): number {
  const formats = [def as unknown as Check, ...checks].filter((check) => check.check === 'number_format');
  const whole = formats.some((check) => check.format !== undefined && /int/.test(check.format));
  const low = checks.find((check) => check.check === 'greater_than')?.value;
  const high = checks.find((check) => check.check === 'less_than')?.value;
  if (!whole) return numberBytes;
  if (low === undefined || high === undefined) return safeIntegerBytes;
  return Math.max(String(low).length, String(high).length);
}

/**
 * The most JSON bytes of a string matching `pattern`, when it is simple enough to read: anchored at both ends, made of
 * literal characters, escapes, character classes and non-capturing groups with alternatives, each with a bounded
 * count (`{2}`, `{1,3}`, `?`). Infinity otherwise (`*`, `+`, a lookahead, a back-reference...), when the string's length
 * must bound it. A character that may be outside ASCII counts `jsonCharBytes`; `"` and `\` count 2.
 */
export function patternBytes(pattern: RegExp): number {
  const source = pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$')) return Number.POSITIVE_INFINITY;
  // With `i` and `u`, ASCII letters match others (k: the Kelvin sign): every character counts its most.
  const caseless = pattern.flags.includes('i');
  try {
    const reader = new PatternReader(source.slice(1, -1), caseless);
    const bytes = reader.alternatives();
    return reader.done() ? bytes : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A reader of the simple patterns `patternBytes` knows; it throws at anything else. */
class PatternReader {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly caseless: boolean,
  ) {}

  done(): boolean {
    return this.at === this.text.length;
  }

  /** `a|b|c` up to the end or a `)`: the most of them. */
  alternatives(): number {
    let most = this.sequence();
    while (this.text[this.at] === '|') {
      this.at += 1;
      most = Math.max(most, this.sequence());
    }
    return most;
  }

  private sequence(): number {
    let bytes = 0;
    while (!this.done() && this.text[this.at] !== '|' && this.text[this.at] !== ')') {
      const atom = this.atom();
      bytes += atom * this.count();
    }
    return bytes;
  }

  private atom(): number {
    const char = this.text[this.at] as string;
    this.at += 1;
    if (char === '(') {
      if (!this.text.startsWith('?:', this.at)) throw new Error('only (?:...) groups');
      this.at += 2;
      const bytes = this.alternatives();
      if (this.text[this.at] !== ')') throw new Error('unclosed group');
      this.at += 1;
      return bytes;
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape();
    if ('.^$*+?{}|)]'.includes(char)) throw new Error(`${char} is not read`);
    return this.charBytes(char);
  }

  private characterClass(): number {
    if (this.text[this.at] === '^') throw new Error('a negated class matches anything else');
    let most = 0;
    while (this.text[this.at] !== ']') {
      if (this.done()) throw new Error('unclosed class');
      const char = this.text[this.at] as string;
      this.at += 1;
      if (char === '\\') most = Math.max(most, this.escape());
      else if (this.text[this.at] === '-' && this.text[this.at + 1] !== ']') {
        const last = this.text[this.at + 1] as string;
        if (last === '\\' || last === '[') throw new Error('a range to an escape is not read');
        this.at += 2;
        most = Math.max(most, this.rangeBytes(char, last));
      } else most = Math.max(most, this.charBytes(char));
    }
    this.at += 1;
    return most;
  }

  /** An escape after its `\`: a digit (`\d`), or a character meant as itself (`\.`, `\-`); nothing else is read. */
  private escape(): number {
    const char = this.text[this.at] as string;
    this.at += 1;
    if (char === 'd') return 1;
    if (/^[\\/.\-+*?()[\]{}|^$]$/.test(char)) return this.charBytes(char);
    throw new Error(`\\${char} is not read`);
  }

  private charBytes(char: string): number {
    if (char === '"' || char === '\\') return 2;
    const code = char.codePointAt(0) ?? 0;
    return code >= 0x20 && code < 0x7f && !(this.caseless && /[a-z]/i.test(char)) ? 1 : jsonCharBytes;
  }

  private rangeBytes(first: string, last: string): number {
    const [from, to] = [first.codePointAt(0) ?? 0, last.codePointAt(0) ?? 0];
    if (to < 0x20 || from > 0x7e || to > 0x7e || from < 0x20) return jsonCharBytes;
    if (this.caseless && /[a-z]/i.test(String.fromCodePoint(...range(from, to)))) return jsonCharBytes;
    // A range over `"` (0x22) or `\` (0x5c) holds a character escaped in two bytes.
    return (from <= 0x22 && to >= 0x22) || (from <= 0x5c && to >= 0x5c) ? 2 : 1;
  }

  /** The count after an atom: `{n}`, `{m,n}`, `?`, or 1; an unbounded one (`*`, `+`, `{m,}`) throws. */
  private count(): number {
    const rest = this.text.slice(this.at);
    if (rest.startsWith('?')) {
      this.at += 1;
      return 1;
    }
    const braces = /^\{(\d+)(?:,(\d+))?\}/.exec(rest);
    if (braces) {
      this.at += braces[0].length;
      return Number(braces[2] ?? braces[1]);
    }
    if (rest.startsWith('*') || rest.startsWith('+') || rest.startsWith('{')) throw new Error('unbounded');
    return 1;
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
