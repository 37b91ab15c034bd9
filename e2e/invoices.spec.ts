import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { pdfText } from '../test/support/pdf-text';
import { addToCart, expect, makeOwner, placeOrder, signUpConfirmed, test } from './support';

/** The shop's month now, as the Invoices page names it ('November 2026'). */
function thisMonth(): string {
  return new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'America/New_York' });
}

test('a rider downloads the invoice of a paid order, and the credit note once it is cancelled; the owner sees both numbers', async ({
  page,
}) => {
  const owner = await signUpConfirmed(page);
  makeOwner(owner);
  await addToCart(page, 'Anky Bridle');
  const number = await placeOrder(page);
  await expect(page.getByRole('link', { name: 'Download invoice (PDF)' })).toHaveCount(0);

  await page.goto(`/admin/orders/${number}`);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'marked paid' })).toBeVisible();
  const invoiceLink = page.getByRole('link', { name: /^Download INV-\d{4}-\d{5} \(PDF\)$/ });
  await expect(invoiceLink).toBeVisible();
  const invoice = ((await invoiceLink.textContent()) ?? '').replace(/^Download | \(PDF\)$/g, '');

  await page.goto(`/orders/${number}`);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download invoice (PDF)' }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toBe(`${invoice}.pdf`);
  const text = await pdfText(readFileSync(await pdf.path()));
  expect(text).toContain(`Invoice ${invoice}`);
  expect(text).toContain(number);
  expect(text).toContain('Anky Bridle, size Full $302.99');
  expect(text).toContain('Piaffe Saddlery LLC');

  await page.goto(`/admin/orders/${number}`);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'cancelled' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Download CN-\d{4}-\d{5} \(PDF\)$/ })).toBeVisible();
  await page.goto(`/orders/${number}`);
  const creditDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download credit note (PDF)' }).click();
  const credit = await pdfText(readFileSync(await (await creditDownload).path()));
  expect(credit).toContain(`Cancels invoice ${invoice}`);
  expect(credit).toContain('Anky Bridle, size Full -$302.99');
});

test("the owner downloads a month's invoices as one ZIP with its summary", async ({ page }) => {
  const owner = await signUpConfirmed(page);
  makeOwner(owner);
  await addToCart(page, 'Dakota Barn Jacket');
  const number = await placeOrder(page);
  await page.goto(`/admin/orders/${number}`);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'marked paid' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Invoices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  const table = page.getByRole('table', { name: `Invoices and credit notes of ${thisMonth()}` });
  const row = table.getByRole('row', { name: new RegExp(number) });
  await expect(row).toContainText('Invoice');
  await expect(row).toContainText('$404.00');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: `Download ${thisMonth()}` }).click();
  const zip = unzipSync(new Uint8Array(readFileSync(await (await download).path())));
  const invoice = (await row.getByRole('cell').first().textContent()) ?? '';
  expect(Object.keys(zip)).toContain(`${invoice}.pdf`);
  expect(Object.keys(zip)).toContain('summary.csv');
  const csv = new TextDecoder().decode(zip['summary.csv']);
  expect(csv).toMatch(new RegExp(`"${invoice}","\\d{4}-\\d{2}-\\d{2}","${number}","[^"]+",404\\.00,404\\.00,"USD"`));
});
