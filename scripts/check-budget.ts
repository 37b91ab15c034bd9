// `npm run check:budget` (after `npm run build`): the JavaScript a browser fetches on the first load of /home (as a
// visitor and as a rider), a product's page, /cart and /checkout, counted in Chromium as the server sends it, and a
// failure when any of them is over its budget (ADR 0028, 0045). The build manifest's view of each route follows, as the
// explanation of those files.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { table } from '../bench/support/stats';
import { testBrowserLaunchOptions } from '../e2e/chromium';
import { entryKey, pageModuleKey, readManifest, withStaticImports } from '../src/server/page-modules';
import { type PageName, pages } from '../src/shared/pages';
import { startChild } from '../test/support/child-server';
import { type FirstLoad, firstLoad, gzipBytesOf, riderWithItems } from './first-load';

/** A product's page as the budget check opens it: the first product's. */
const productPagePath = pages.product.path.replace(':slug', 'anky-bridle');

/** Budgets in KB (1 KB = 1000 bytes, as Vite reports sizes) of JavaScript a browser fetches on a page's first load. */
export const budgetsKb: Readonly<Record<string, number>> = {
  [pages.home.path]: 100,
  [productPagePath]: 100,
  [pages.cart.path]: 100,
  [pages.checkout.path]: 100,
};

export const kb = (bytes: number) => (bytes / 1000).toFixed(1);

// The browser's count ------------------------------------------------------------------------------------------------

/** The first loads the budget check makes: what a visitor and a rider open first, and the way to an order. */
export async function measureFirstLoads(distDir = 'dist'): Promise<FirstLoad[]> {
  const dist = resolve(distDir);
  const server = await startChild({ built: true, env: { DIST_DIR: dist } });
  const browser = await chromium.launch(testBrowserLaunchOptions);
  try {
    const rider = await riderWithItems(browser, server.url, ['Anky Bridle']);
    const visit = (name: string, path: string, state?: typeof rider) =>
      firstLoad(browser, { name, baseUrl: server.url, path, distDir: dist, ...(state ? { state } : {}) });
    return [
      await visit(`${pages.home.path} (visitor)`, pages.home.path),
      await visit(`${pages.home.path} (rider)`, pages.home.path, rider),
      await visit(`${productPagePath} (rider)`, productPagePath, rider),
      await visit(`${pages.cart.path} (rider)`, pages.cart.path, rider),
      await visit(`${pages.checkout.path} (rider)`, pages.checkout.path, rider),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function formatFirstLoads(loads: FirstLoad[]): string {
  const summary = table(
    ['first load', 'landed on', 'scripts', 'KB as sent', 'budget KB', 'KB if gzip only'],
    loads.map((load) => [
      load.name,
      load.landedOn,
      String(load.scripts.length),
      kb(load.bytes),
      String(budgetsKb[load.path] ?? '-'),
      kb(load.gzipBytes),
    ]),
  );
  const files = loads.map(
    (load) =>
      `${load.name}:\n${table(
        ['script', 'encoding', 'KB as sent', 'KB if gzip only'],
        load.scripts.map((script) => [script.path, script.encoding, kb(script.bytes), kb(script.gzipBytes)]),
      )}`,
  );
  return [summary, ...files].join('\n\n');
}

/** The first loads over budget, as messages naming their files; empty when every budget holds. */
export function overBudget(loads: FirstLoad[]): string[] {
  return loads.flatMap((load) => {
    const budget = budgetsKb[load.path];
    if (budget === undefined || load.bytes <= budget * 1000) return [];
    const files = load.scripts.map((script) => `${script.path} ${kb(script.bytes)}`).join(', ');
    return [`${load.name} fetches ${kb(load.bytes)} KB of JavaScript, over its budget of ${budget} KB (${files}).`];
  });
}

// The manifest's view ------------------------------------------------------------------------------------------------

export interface RouteSize {
  /** The page's path, from src/shared/pages.ts. */
  route: string;
  /** The JavaScript files, entry first. */
  files: string[];
  jsBytes: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
}

/** What index.html asks for itself: its module scripts and modulepreload links. */
function htmlScripts(html: string): string[] {
  const found = html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g);
  return [...found].map((match) => match[1] as string);
}

/**
 * What each route's modules import statically, by the build manifest, gzipped: the part of a first load the build
 * decides. A browser fetches more (what those modules import once they run), which only the browser's count sees.
 */
export function routeSizes(distDir = 'dist'): RouteSize[] {
  const dist = resolve(distDir);
  const manifest = readManifest(dist);
  if (!manifest) throw new Error(`${dist} has no .vite/manifest.json: run npm run build first.`);
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const bytes = (file: string) => readFileSync(join(dist, file)).length;

  return (Object.keys(pages) as PageName[]).map((name) => {
    const files = new Set<string>();
    for (const file of htmlScripts(html)) files.add(file);
    withStaticImports(manifest, entryKey(manifest), files);
    withStaticImports(manifest, pageModuleKey(manifest, name), files);
    const css = new Set<string>();
    for (const key of Object.keys(manifest)) {
      if ([...files].includes(manifest[key]?.file ?? '')) for (const file of manifest[key]?.css ?? []) css.add(file);
    }
    return {
      route: pages[name].path,
      files: [...files],
      jsBytes: [...files].reduce((sum, file) => sum + bytes(file), 0),
      jsGzipBytes: [...files].reduce((sum, file) => sum + gzipBytesOf(dist, file), 0),
      cssGzipBytes: [...css].reduce((sum, file) => sum + gzipBytesOf(dist, file), 0),
    };
  });
}

export function formatTable(sizes: RouteSize[]): string {
  return table(
    ['route', 'JS files', 'JS KB', 'JS KB gzip', 'CSS KB gzip'],
    sizes.map((size) => [
      size.route,
      String(size.files.length),
      kb(size.jsBytes),
      kb(size.jsGzipBytes),
      kb(size.cssGzipBytes),
    ]),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const distDir = process.argv[2] ?? 'dist';
  const loads = await measureFirstLoads(distDir);
  console.log(`JavaScript a browser fetches on a first load, until the network is idle (Chromium):\n`);
  console.log(formatFirstLoads(loads));
  console.log(`\nWhat each route's modules import statically, by the build manifest (gzip):\n`);
  console.log(formatTable(routeSizes(distDir)));
  const problems = overBudget(loads);
  if (problems.length > 0) {
    console.error(`\nOver the JavaScript budget (scripts/check-budget.ts):\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log('\nEvery first load is within its JavaScript budget.');
}
