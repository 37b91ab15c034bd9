import { describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { runCommand } from '../support/command-line';
import { openStockStream } from '../support/event-stream';
import { serverOnOwnDatabase } from '../support/test-database';

/** `npm run stock -- ...` (src/server/stock-cli.ts) as a child process, against a database a server also runs on. */
const shop = serverOnOwnDatabase();
const stock = (...args: string[]) => runCommand('stock', shop.database.url, args, { LOG_LEVEL: 'warn' });

// Each test starts the command line several times, a Node process through tsx each: seconds apiece while the
// rest of the suite runs on the same two cores (over 20 s for a test on 2026-11-25), so the bound is a minute.
describe('npm run stock', { timeout: 60_000 }, () => {
  it('sets one size, every size of a product, or every size; the shop sells by it at once', async () => {
    expect(await stock('set', '4', 'XS', '0')).toEqual({ code: 0, stdout: 'Set 1 size to 0 in stock.\n', stderr: '' });
    const rider = new Client(shop.server.url);
    await rider.signup();
    expect((await rider.json('POST', '/api/cart', { itemid: '4', size: 'XS' })).body.code).toBe('cart/sold-out');

    // The whole result, so that a failure shows what the command said on stderr.
    expect(await stock('set', '2', 'all', '1')).toEqual({
      code: 0,
      stdout: 'Set 4 sizes to 1 in stock.\n',
      stderr: '',
    });
    expect(await stock('set', 'all', 'all', '7')).toEqual({
      code: 0,
      stdout: 'Set 37 sizes to 7 in stock.\n',
      stderr: '',
    });
    const list = (await stock('list')).stdout.split('\n');
    expect(list).toHaveLength(38);
    expect(list[0]).toMatch(/^1 {2}Anky Bridle +Pony +7$/);
    expect(list[5]).toMatch(/^2 {2}Albion SLK Saddle +17" +7$/);
  });

  it('reaches the open pages on PostgreSQL at once (on SQLite, at their next load)', async () => {
    const rider = new Client(shop.server.url);
    await rider.signup();
    const stream = await openStockStream(rider);
    try {
      await stream.next('snapshot');
      await stock('set', '8', 'Cob', '3');
      if (shop.database.backend === 'postgres') {
        expect(await stream.next('stock')).toEqual({ type: 'stock', itemid: '8', size: 'Cob', stock: 3 });
      }
      const again = await openStockStream(rider);
      expect((await again.next('snapshot')).stock).toContainEqual({ itemid: '8', size: 'Cob', stock: 3 });
      again.close();
    } finally {
      stream.close();
    }
  });

  it('refuses an unknown product or size, or a count that is not one, with exit code 1', async () => {
    // The owner's form's limit (productLimits.stockMax): above it, the product could no longer be saved there.
    const badCounts = ['-1', '1.5', 'many', '100001', '1000000', ''];
    // Refusals change nothing, so the commands run side by side, each a process of its own.
    const [noProduct, noSize, noSizeAnywhere, ...counts] = await Promise.all([
      stock('set', '9', 'M', '1'),
      stock('set', '1', 'XL', '1'),
      stock('set', 'all', 'XXL', '1'),
      ...badCounts.map((count) => stock('set', '1', 'Cob', count)),
    ]);
    expect(noProduct).toEqual({
      code: 1,
      stdout: '',
      stderr: 'There is no product with the item number 9.\n',
    });
    expect(noSize?.stderr).toBe('Anky Bridle comes in no size XL: its sizes are Pony, Cob, Full, Warmblood.\n');
    expect(noSizeAnywhere?.stderr).toBe('No product comes in size XXL.\n');
    expect(counts).toHaveLength(badCounts.length);
    for (const refused of counts) {
      expect(refused).toEqual({
        code: 1,
        stdout: '',
        stderr: 'The count must be a whole number from 0 to 100,000.\n',
      });
    }
    expect(await stock('set', '1', 'Cob', '100000')).toEqual({
      code: 0,
      stdout: 'Set 1 size to 100000 in stock.\n',
      stderr: '',
    });
  });

  it('shows how to use it, with exit code 2, for anything else', async () => {
    const misused = [[], ['list', 'x'], ['set', '1', 'Cob'], ['add', '1', 'Cob', '2']];
    for (const result of await Promise.all(misused.map((args) => stock(...args)))) {
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Usage: npm run stock -- list | set <itemid|all> <size|all> <count>\n',
      });
    }
  });
});
