import { describe, expect, it } from 'vitest';
import type { ProductPage } from '../../src/shared/finding';
import { Client } from '../support/client';
import { runCommand } from '../support/command-line';
import { startTestServer } from '../support/server';
import { createDatabase } from '../support/test-database';

/** `npm run demo-data -- --products N` (src/server/demo-data-cli.ts) as a child process, on a new shop's database. */
const demoData = (url: string, ...args: string[]) => runCommand('demo-data', url, args, { LOG_LEVEL: 'warn' });

describe('npm run demo-data', { timeout: 120_000 }, () => {
  it('fills a new shop through its stores, the same for the same seed, and refuses a shop that is not new', async () => {
    const made: string[][] = [];
    for (const run of [1, 2]) {
      const database = await createDatabase();
      try {
        const done = await demoData(database.url, '--products', '40', '--seed', '7');
        expect(done).toMatchObject({ code: 0, stderr: '' });
        expect(done.stdout).toMatch(/^Made 32 products \(seed 7\): the shop has 40, in [\d.]+ s\.\n$/);
        const server = await startTestServer({ DATABASE_URL: database.url });
        try {
          const visitor = new Client(server.url);
          const page = (query: string) =>
            visitor.json('GET', `/api/products?${query}`).then((r) => r.body as ProductPage);
          const all = [...(await page('page=1')).products, ...(await page('page=2')).products];
          expect(all).toHaveLength(40);
          made.push(all.map((p) => `${p.slug} ${p.priceCents} ${p.sizes.map((s) => s.stock).join(',')}`));
          expect(all.at(-1)?.sizes).toHaveLength(5);
          // Each in a category, and found by its words: the search index followed every product.
          const categories = await Promise.all(
            ['bridles', 'saddles', 'boots', 'jackets', 'saddle-pads'].map(
              async (c) => (await page(`category=${c}`)).total,
            ),
          );
          expect(categories.reduce((a, b) => a + b)).toBe(40);
          const last = all.at(-1);
          expect((await page(`q=${encodeURIComponent(last?.name ?? '')}`)).products.map((p) => p.itemid)).toEqual([
            last?.itemid,
          ]);
        } finally {
          await server.stop();
        }
        if (run === 2) {
          expect(await demoData(database.url, '--products', '50')).toEqual({
            code: 1,
            stdout: '',
            stderr: 'The shop is not new (40 products, 0 orders): demo data goes into a new shop only.\n',
          });
        }
      } finally {
        await database.drop();
      }
    }
    expect(made[1]).toEqual(made[0]);
  });

  it('says how to use it', async () => {
    const database = await createDatabase();
    try {
      expect(await demoData(database.url, '--products')).toMatchObject({ code: 2 });
      expect(await demoData(database.url, '--products', '3')).toMatchObject({
        code: 2,
        stderr: '--products must be a whole number from 8 to 100,000.\n',
      });
    } finally {
      await database.drop();
    }
  });
});
