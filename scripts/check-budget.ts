// `npm run check:budget` (after `npm run build`): the JavaScript each page route loads first, gzipped as the
// server sends it, and a failure when /home is over its budget.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { pageModuleFile } from '../src/client/app/page-module';
import { type PageName, pages } from '../src/shared/pages';

/** Budgets in KB (1 KB = 1000 bytes, as Vite reports sizes) of gzipped JavaScript on a route's first load. */
export const budgetsKb: Readonly<Record<string, number>> = { [pages.home.path]: 106 };

/** src/server/static-files.ts compresses files over 1 KB (default zlib level) and sends smaller ones as they are. */
const serverGzipsOver = 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteSize {
  /** The page's path, from src/shared/pages.ts. */
  route: string;
  /** The JavaScript files, entry first. */
  files: string[];
  jsBytes: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
}

function sentBytes(body: Buffer): number {
  return body.length > serverGzipsOver ? gzipSync(body).length : body.length;
}

/** A chunk and everything it imports statically, i.e. what the browser fetches before running it. */
function withStaticImports(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The build manifest has no entry for ${key}.`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) withStaticImports(manifest, imported, into);
}

/**
 * The manifest key of a page's module, found by the naming convention the router also follows
 * (src/client/app/page-module.ts): a lazily loaded module named after the page.
 */
function pageModuleKey(manifest: Manifest, name: PageName): string {
  const file = `/${pageModuleFile(name)}`;
  const found = Object.keys(manifest).filter((key) => key.endsWith(file) && manifest[key]?.isDynamicEntry);
  if (found.length !== 1 || !found[0]) {
    throw new Error(`The build has ${found.length} lazily loaded modules named *${file} for the page ${name}.`);
  }
  return found[0];
}

/** What index.html asks for itself: its module scripts and modulepreload links. */
function htmlScripts(html: string): string[] {
  const found = html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g);
  return [...found].map((match) => match[1] as string);
}

/** The JavaScript (and CSS) each route loads before it can show its page, gzipped as the server sends it. */
export function routeSizes(distDir = 'dist'): RouteSize[] {
  const dist = resolve(distDir);
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry chunk.');
  const bytes = (file: string) => readFileSync(join(dist, file));

  return (Object.keys(pages) as PageName[]).map((name) => {
    const files = new Set<string>();
    for (const file of htmlScripts(html)) files.add(file);
    withStaticImports(manifest, entryKey, files);
    withStaticImports(manifest, pageModuleKey(manifest, name), files);
    const css = new Set<string>();
    for (const key of Object.keys(manifest)) {
      if ([...files].includes(manifest[key]?.file ?? '')) for (const file of manifest[key]?.css ?? []) css.add(file);
    }
    return {
      route: pages[name].path,
      files: [...files],
      jsBytes: [...files].reduce((sum, file) => sum + bytes(file).length, 0),
      jsGzipBytes: [...files].reduce((sum, file) => sum + sentBytes(bytes(file)), 0),
      cssGzipBytes: [...css].reduce((sum, file) => sum + sentBytes(bytes(file)), 0),
    };
  });
}

export const kb = (bytes: number) => (bytes / 1000).toFixed(1);

export function formatTable(sizes: RouteSize[]): string {
  const rows = sizes.map((size) => {
    const budget = budgetsKb[size.route];
    return [
      size.route,
      String(size.files.length),
      kb(size.jsBytes),
      kb(size.jsGzipBytes),
      budget === undefined ? '-' : String(budget),
      kb(size.cssGzipBytes),
    ];
  });
  const header = ['route', 'JS files', 'JS KB', 'JS KB gzip', 'budget KB gzip', 'CSS KB gzip'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The routes over budget, as messages; empty when every budget holds. */
export function overBudget(sizes: RouteSize[]): string[] {
  return sizes.flatMap((size) => {
    const budget = budgetsKb[size.route];
    if (budget === undefined || size.jsGzipBytes <= budget * 1000) return [];
    return [
      `${size.route} loads ${kb(size.jsGzipBytes)} KB of gzipped JavaScript first, over its budget of ${budget} KB ` +
        `(${size.files.join(', ')}).`,
    ];
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = routeSizes(process.argv[2]);
  console.log(formatTable(sizes));
  const problems = overBudget(sizes);
  if (problems.length > 0) {
    console.error(`\nOver the JavaScript budget (scripts/check-budget.ts):\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log('\nEvery route is within its JavaScript budget.');
}
