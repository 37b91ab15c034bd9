import { describe, expect, it } from 'vitest';
import type { ReceivedMail } from '../../scripts/mailbox';
import { Client, testMailbox } from '../support/client';
import { crashScene } from '../support/crash-scene';
import { stockUp } from '../support/test-database';
import { until } from '../support/until';

const scene = crashScene();

const riders = 10;
const subject = 'Anky Bridle, size Cob, is back';

describe('back in stock through a crash (docs/decisions/0058-back-in-stock.md)', () => {
  it(`SIGKILL while the ${riders} e-mails of a restock are sent: after restart each rider has it, at most one twice, every wait ended once`, async () => {
    // A slow mail server, so the kill lands while the sender is at work.
    const mailbox = scene.closing(await testMailbox({ acceptAfterMs: 150 }));
    const database = await scene.database();
    const env = { SMTP_URL: mailbox.url };
    let server = await scene.start({ env });
    await stockUp(database);
    await database.query("update product_size set stock = 1 where itemid = '1' and size = 'Cob'");
    // The last Cob is sold; the riders wait for it; the buyer's cancel gives it back.
    const buyer = new Client(server.url);
    await buyer.signupConfirmed();
    await buyer.add('1', 'Cob');
    const placed = await buyer.placeOrder();
    expect(placed.status).toBe(201);
    const waiting: string[] = [];
    for (let i = 0; i < riders; i++) {
      const rider = new Client(server.url);
      const { email } = await rider.signupConfirmed();
      expect((await rider.json('POST', '/api/account/stock-alerts', { itemid: '1', size: 'Cob' })).status).toBe(201);
      waiting.push(email);
    }
    expect((await buyer.json('POST', `/api/orders/${placed.body.order.number}/cancel`)).status).toBe(200);

    const isBack = (m: ReceivedMail) => m.parsed.subject === subject;
    await mailbox.waitFor(isBack, { ms: 20_000 });
    await mailbox.waitFor(isBack, { ms: 20_000, after: mailbox.mails.findIndex(isBack) + 1 });
    await server.kill('SIGKILL');
    const beforeRestart = mailbox.mails.filter(isBack).length;
    expect(beforeRestart).toBeLessThan(riders);

    server = await scene.start({ env });
    for (const email of waiting) await mailbox.waitFor((m) => isBack(m) && m.to.includes(email), { ms: 30_000 });
    // Every e-mail sent: the sender tries none again, and the mailbox holds each it took (it keeps one before it answers).
    const unsent = "select id from outbox where kind = 'back-in-stock' and state <> 'sent'";
    await until(async () => (await database.query(unsent)).length === 0, 30_000, 'every e-mail sent');
    const received = mailbox.mails.filter(isBack);
    // A duplicate is only possible for the e-mail the mail server took just before the kill (docs/RELIABILITY.md).
    expect(received.length - riders).toBeLessThanOrEqual(1);
    expect(new Set(received.flatMap((m) => m.to))).toEqual(new Set(waiting));
    const rows = await database.query<{ recipient: string; state: string }>(
      "select recipient, state from outbox where kind = 'back-in-stock'",
    );
    expect(rows.map((r) => r.recipient).sort()).toEqual([...waiting].sort());
    expect(rows.every((r) => r.state === 'sent')).toBe(true);
    expect(await database.query('select id from stock_wait')).toEqual([]);
  }, 120_000);
});
