import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageModuleFile } from '../client/app/page-module';
import { type PageName, pages } from '../shared/pages';

/**
 * Which files of the built client each page's module needs, from Vite's manifest (`dist/.vite/manifest.json`): for the
 * budget check's explanation (scripts/check-budget.ts) and for the server, which names a page's own files in its HTML
 * (`<link rel="modulepreload">`, ADR 0028) so that the browser fetches them beside the entry instead of after it.
 */

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(distDir: string): Manifest | undefined {
  const file = join(distDir, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined;
}

/** A chunk's file and those of everything it imports statically: what the browser fetches before running it. */
export function withStaticImports(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The build manifest has no entry for ${key}.`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) withStaticImports(manifest, imported, into);
  return into;
}

export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((name) => manifest[name]?.isEntry);
  if (!key) throw new Error('The build manifest has no entry chunk.');
  return key;
}

/**
 * The manifest key of a page's module, found by the naming convention the router also follows
 * (src/client/app/page-module.ts): a lazily loaded module named after the page.
 */
export function pageModuleKey(manifest: Manifest, name: PageName): string {
  const file = `/${pageModuleFile(name)}`;
  const found = Object.keys(manifest).filter((key) => key.endsWith(file) && manifest[key]?.isDynamicEntry);
  if (found.length !== 1 || !found[0]) {
    throw new Error(`The build has ${found.length} lazily loaded modules named *${file} for the page ${name}.`);
  }
  return found[0];
}

/**
 * The paths (`/assets/…js`) of the files a page's module needs beyond the entry's, by page path; none for the
 * owners' pages, whose modules load with the back office's own chunk. Empty without a manifest.
 */
export function pageModulePreloads(distDir: string): ReadonlyMap<string, readonly string[]> {
  const manifest = readManifest(distDir);
  const preloads = new Map<string, string[]>();
  if (!manifest) return preloads;
  const entry = withStaticImports(manifest, entryKey(manifest));
  for (const name of Object.keys(pages) as PageName[]) {
    if (pages[name].access === 'owner') continue;
    const files = [...withStaticImports(manifest, pageModuleKey(manifest, name))].filter((file) => !entry.has(file));
    preloads.set(
      pages[name].path,
      files.map((file) => `/${file}`),
    );
  }
  return preloads;
}
