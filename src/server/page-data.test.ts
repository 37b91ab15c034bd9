import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { afterFirstPaintScript, appScriptsMetaName, pageDataElementId } from '../shared/page-data';
import { publicShopOf } from '../shared/settings';
import { newShopSettings } from './db/new-shop-settings';
import { versionOf } from './live/live-streams';
import { pageHtml } from './page-data';

const html = '<!doctype html><html><head><title>Piaffe</title></head><body><div id="root"></div></body></html>';

describe('page data', () => {
  it('goes into the head as a JSON element that no text in it can end', () => {
    const user = { uid: 'u1', email: '</script><script>alert(1)</script><!--@example.test', emailConfirmed: true };
    const shop = publicShopOf(newShopSettings);
    const page = pageHtml(html, { session: { user, role: 'rider' }, shop });
    const element = new RegExp(`<script type="application/json" id="${pageDataElementId}">(.*?)</script></head>`);
    const json = element.exec(page)?.[1] ?? '';
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ session: { user, role: 'rider' }, shop });
    expect(page.replace(element, '</head>')).toBe(html);
  });

  it("keeps the owner's words as they are, $ patterns and all", () => {
    for (const name of ['Gloves $` 2-pack', "$& $' $$ $1 $<x>", '$$$']) {
      const product = {
        itemid: '1',
        slug: 'a',
        name,
        priceCents: 100,
        details: name,
        pic: '',
        largepic: '',
        sizes: [],
      };
      const list = { products: [product], page: 1, pages: 1, total: 1, categories: [], sizes: [] };
      const data = { session: null, shop: publicShopOf(newShopSettings), catalogue: { list, version: 'v' } };
      const page = pageHtml(html, data);
      const json = new RegExp(`<script type="application/json" id="${pageDataElementId}">(.*?)</script></head>`).exec(
        page,
      )?.[1];
      expect(JSON.parse(json ?? ''), name).toEqual(data);
      expect(page.startsWith(html.slice(0, html.indexOf('</head>'))), name).toBe(true);
    }
  });

  it("names the page module's files to preload before its data", () => {
    const data = { session: null, shop: publicShopOf(newShopSettings) };
    const page = pageHtml(html, data, ['/assets/home-page-1.js', '/assets/sizes-2.js']);
    expect(page).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/home-page-1.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/sizes-2.js">' +
        `<script type="application/json" id="${pageDataElementId}">${JSON.stringify(data)}</script></head>`,
    );
  });

  it('lets a page rendered on the server paint before it fetches any script, then names them all', () => {
    const built =
      '<!doctype html><html><head><title>Piaffe</title>' +
      '<script type="module" crossorigin src="/assets/index-1.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/vendor-2.js">' +
      '<link rel="stylesheet" crossorigin href="/assets/index-3.css">' +
      '</head><body><div id="root"></div></body></html>';
    const data = { session: null, shop: publicShopOf(newShopSettings) };
    const page = pageHtml(built, data, ['/assets/product-page-4.js'], undefined, '<main>Anky bridle</main>');
    expect(page).not.toMatch(/<script type="module" crossorigin|modulepreload/);
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-3.css">');
    expect(page).toContain(
      `<meta name="${appScriptsMetaName}" content="/assets/index-1.js /assets/vendor-2.js /assets/product-page-4.js">` +
        `<script type="module" src="${afterFirstPaintScript}"></script>`,
    );
    expect(page).toContain('<div id="root"><main>Anky bridle</main></div>');
    // The page without a rendering fetches its scripts at once, as before.
    expect(pageHtml(built, data, ['/assets/product-page-4.js'])).toContain(
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
    );
    // The script that fetches them reads the same name (public/ is not built from src/).
    expect(readFileSync(`public${afterFirstPaintScript}`, 'utf8')).toContain(`meta[name="${appScriptsMetaName}"]`);
  });

  it("puts a rendered page's data after its content, and holds the first paint until it is parsed", () => {
    const data = { session: null, shop: publicShopOf(newShopSettings) };
    const page = pageHtml(html, data, ['/assets/home-page-1.js'], undefined, '<main>Our collection</main>');
    expect(page).toBe(
      '<!doctype html><html><head><title>Piaffe</title>' +
        '<link rel="modulepreload" crossorigin href="/assets/home-page-1.js">' +
        `<link rel="expect" href="#${pageDataElementId}" blocking="render"></head>` +
        '<body><div id="root"><main>Our collection</main></div>' +
        `<script type="application/json" id="${pageDataElementId}">${JSON.stringify(data)}</script></body></html>`,
    );
  });

  it('versions the products by what the page shows of them', () => {
    const products = [
      { itemid: '1', slug: 'a', name: 'A', priceCents: 100, details: '', pic: '', largepic: '', sizes: [] },
    ];
    expect(versionOf(products)).toBe(versionOf(structuredClone(products)));
    expect(versionOf(products)).not.toBe(
      versionOf([{ ...products[0], sizes: [{ size: 'M', stock: 1 }] } as (typeof products)[0]]),
    );
  });
});
