import type { Locator, Page } from '@playwright/test';
import { firstCatalogue as catalogue } from '../src/server/db/migrations/0009-owners-catalogue';
import { jpegPicture, pngPicture, textNamedJpg } from '../test/support/pictures';
import type { FreshShop } from './shops';
import {
  addToCart,
  cartTable,
  checkoutForm,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  itemText,
  pageOnAnotherDevice,
  productCard,
  signUpConfirmed,
  signUpOwner,
  testOnFreshShop,
  totalCell,
} from './support';

/**
 * The owner's catalogue in the browser (docs/product.md §13). These tests change the catalogue, so each runs on a new
 * shop of its own (`testOnFreshShop`): each meets the eight products of a new shop, however often and in whatever
 * order the tests run, and they run in parallel.
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

const media = /^\/media\/[0-9a-f]{64}\.webp$/;

/** A page of the test's shop in a fresh browser context: another rider, another owner. */
function anotherDevice(browser: Parameters<typeof pageOnAnotherDevice>[0], shop: FreshShop): Promise<Page> {
  return pageOnAnotherDevice(browser, shop.baseURL);
}

const productsTable = (page: Page) => page.getByRole('table', { name: 'Products' });
const productRow = (page: Page, name: string) =>
  productsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

async function openProducts(page: Page): Promise<void> {
  await page.goto('/admin/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
}

async function openProduct(page: Page, name: string): Promise<void> {
  await openProducts(page);
  await productsTable(page).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

const productForm = (page: Page) => page.getByRole('form', { name: /^(Name, price and sizes|New product)$/ });
const field = (page: Page, label: string) => productForm(page).getByLabel(label, { exact: true });
const sizeGroup = (page: Page, place: number) =>
  productForm(page).getByRole('group', { name: `Size ${place}`, exact: true });
const sizeField = (page: Page, place: number, label: 'Size name' | 'Stock') =>
  sizeGroup(page, place).getByLabel(label, { exact: true });

/** The field shows the problem next to it: marked invalid, and the message tied to it. */
async function expectProblem(control: Locator, message: string): Promise<void> {
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  await expect(control).toHaveAccessibleDescription(new RegExp(message.replace(/[.$()]/g, '\\$&')));
}

async function save(page: Page, version: number): Promise<void> {
  await productForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(productForm(page).getByRole('status')).toHaveText(`Saved. This is version ${version} of the product.`);
}

/** The names of the products the home page shows, in order. */
async function homeProducts(page: Page): Promise<string[]> {
  return page.getByRole('article').getByRole('heading', { level: 2 }).allTextContents();
}

async function expectFitsPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('the back office lists the eight products with pictures, prices, sizes and stock', async ({ page, shop }) => {
  await signUpOwner(page, shop);
  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Products' }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page).toHaveTitle('Products · Back office · Piaffe');

  const rows = productsTable(page).getByRole('row');
  await expect(rows).toHaveCount(1 + catalogue.length);
  const prices = ['$302.99', '$4,990.00', '$499.99', '$379.00', '$398.99', '$299.00', '$379.00', '$344.49'];
  for (const [index, product] of catalogue.entries()) {
    const row = rows.nth(index + 1);
    await expect(row.getByRole('link', { name: product.name, exact: true })).toHaveAttribute(
      'href',
      `/admin/products/${product.itemid}`,
    );
    await expect(row.getByRole('img', { name: product.name })).toHaveAttribute('src', product.pic);
    await expect(row).toContainText(prices[index] ?? '');
    await expect(row).toContainText('Shown');
  }
  await expect(productRow(page, 'Anky Bridle')).toContainText('Pony: 100000Cob: 100000Full: 100000Warmblood: 100000');
  await expect(productRow(page, 'Albion SLK Saddle')).toContainText('16.5": 100000');
  await expect(page.getByRole('button', { name: 'Move up Anky Bridle' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Move down Anky Bridle' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add a product' })).toHaveAttribute('href', '/admin/products/new');
  await expectNoSevereAxeViolation(page);
  await expectFitsPhone(page);
});

test('an owner gives a product its weight in grams; a weight that is not one is refused next to its field', async ({
  page,
  shop,
}) => {
  await signUpOwner(page, shop);
  await openProduct(page, 'Albion SLK Saddle');
  await expect(field(page, 'Weight in grams')).toHaveValue('7000');
  await field(page, 'Weight in grams').fill('-5');
  await productForm(page).getByRole('button', { name: 'Save' }).click();
  await expectProblem(field(page, 'Weight in grams'), 'Weight cannot be below 0.');
  await expect(field(page, 'Weight in grams')).toBeFocused();
  await expectNoSevereAxeViolation(page);
  await field(page, 'Weight in grams').fill('6800');
  await save(page, 2);
  await expect(page.getByRole('table', { name: 'History' }).getByRole('row').nth(1)).toContainText(
    'Weight 7000 g → 6800 g',
  );
  await page.reload();
  await expect(field(page, 'Weight in grams')).toHaveValue('6800');
  await expectFitsPhone(page);
});

test('an owner edits name, details and price; a wrong value is refused next to its field and nothing is saved', async ({
  page,
  shop,
}) => {
  const jacket = 'Carlson Barn Jacket';
  await signUpOwner(page, shop);
  await openProduct(page, jacket);
  await expect(page).toHaveTitle(`${jacket} · Back office · Piaffe`);
  await expect(field(page, 'Price')).toHaveValue('379.00');
  await expect(sizeField(page, 1, 'Size name')).toHaveValue('XS');

  // Every rule at once, but two sizes of one name, which is checked once each size is right.
  await field(page, 'Name').fill('');
  await field(page, 'Price').fill('0');
  await sizeField(page, 1, 'Stock').fill('-1');
  await sizeField(page, 2, 'Stock').fill('100001');
  await productForm(page).getByRole('button', { name: 'Save' }).click();
  await expectProblem(field(page, 'Name'), 'Name is required.');
  await expect(field(page, 'Name')).toBeFocused();
  await expectProblem(field(page, 'Price'), 'Price must be more than 0.00.');
  await expectProblem(sizeField(page, 1, 'Stock'), 'Stock cannot be below 0.');
  await expectProblem(sizeField(page, 2, 'Stock'), 'Stock must be at most 100,000.');
  await expect(productForm(page).getByRole('alert').filter({ hasText: 'Name is required.' })).toBeVisible();
  await expectNoSevereAxeViolation(page);

  await field(page, 'Name').fill(jacket);
  await field(page, 'Price').fill('100000.01');
  await sizeField(page, 1, 'Stock').fill('5');
  await sizeField(page, 2, 'Stock').fill('5');
  await sizeField(page, 2, 'Size name').fill('xs');
  await productForm(page).getByRole('button', { name: 'Save' }).click();
  await expectProblem(field(page, 'Price'), 'Price must be at most 100,000.00.');
  await expectProblem(sizeField(page, 2, 'Size name'), 'Two sizes of one product cannot have the same name.');
  await expect(field(page, 'Name')).not.toHaveAttribute('aria-invalid', 'true');

  // Nothing was saved.
  await page.reload();
  await expect(field(page, 'Price')).toHaveValue('379.00');
  await expect(sizeField(page, 1, 'Stock')).toHaveValue('100000');
  await expect(sizeField(page, 2, 'Size name')).toHaveValue('S');
  await expect(page.getByText('No changes yet')).toBeVisible();

  await field(page, 'Name').fill('Carlson Waxed Jacket');
  await field(page, 'Details').fill('A waxed-cotton jacket.\nA corduroy collar, deep pockets.');
  await field(page, 'Price').fill('389.50');
  await save(page, 2);
  await expect(page.getByRole('heading', { level: 1, name: 'Carlson Waxed Jacket' })).toBeVisible();
  await page.reload();
  await expect(field(page, 'Name')).toHaveValue('Carlson Waxed Jacket');
  await expect(field(page, 'Price')).toHaveValue('389.50');

  await page.goto('/home');
  const card = productCard(page, 'Carlson Waxed Jacket');
  await expect(card.getByText('$389.50', { exact: true })).toBeVisible();
  await expect(card).toContainText('A corduroy collar, deep pockets.');
  await expect(productCard(page, jacket)).toHaveCount(0);
});

test('an owner uploads a picture, which the home page shows; a text file named .jpg is refused', async ({
  page,
  shop,
}) => {
  const jacket = 'Dakota Barn Jacket';
  await signUpOwner(page, shop);
  await openProduct(page, jacket);
  const picture = page.getByRole('form', { name: 'Picture' });
  await expect(picture.getByRole('img', { name: jacket })).toHaveAttribute(
    'src',
    '/pictures/dakota-barn-jacket-thumb.svg',
  );

  await picture
    .getByLabel('New picture')
    .setInputFiles({ name: 'horse.jpg', mimeType: 'image/jpeg', buffer: textNamedJpg() });
  await picture.getByRole('button', { name: 'Upload picture' }).click();
  await expectProblem(picture.getByLabel('New picture'), 'This file is not a JPEG, PNG or WebP picture.');
  await expect(picture.getByRole('alert')).toHaveText('This file is not a JPEG, PNG or WebP picture.');

  await picture
    .getByLabel('New picture')
    .setInputFiles({ name: 'dakota.jpg', mimeType: 'image/jpeg', buffer: await jpegPicture() });
  await picture.getByRole('button', { name: 'Upload picture' }).click();
  await expect(picture.getByRole('status')).toHaveText('The new picture is saved.');
  await expect(picture.getByRole('alert')).toHaveCount(0);
  await expect(picture.getByRole('img', { name: jacket })).toHaveAttribute('src', media);
  const large = picture.getByRole('link', { name: 'Open the large picture' });
  await expect(large).toHaveAttribute('href', media);
  const largeUrl = (await large.getAttribute('href')) ?? '';
  const served = await page.request.get(largeUrl);
  expect(served.headers()['content-type']).toBe('image/webp');
  await expectNoSevereAxeViolation(page);
  await expectFitsPhone(page);

  // The upload was version 2: a save goes on from it, and is not told that the product changed.
  await field(page, 'Price').fill('389.00');
  await save(page, 3);

  await page.goto('/home');
  const card = productCard(page, jacket);
  await expect(card.getByRole('img', { name: jacket })).toHaveAttribute('src', media);
  await expect(card.getByRole('heading').getByRole('link')).toHaveAttribute('href', largeUrl);
  await expect
    .poll(() =>
      card.getByRole('img', { name: jacket }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    )
    .toBeGreaterThan(0);
});

test('an owner adds, renames, removes and reorders sizes and sets their stock; carts follow a rename', async ({
  page,
  browser,
  shop,
}) => {
  const blanket = 'Crochet Saddle Blanket';
  const rider = await anotherDevice(browser, shop);
  await signUpConfirmed(rider);
  await addToCart(rider, blanket, 'Pony');

  await signUpOwner(page, shop);
  await openProduct(page, blanket);
  await expect(sizeField(page, 3, 'Size name')).toHaveValue('Full');
  await sizeField(page, 1, 'Size name').fill('Small pony');
  await sizeField(page, 2, 'Stock').fill('7');
  await sizeGroup(page, 3).getByRole('button', { name: 'Remove' }).click();
  await expect(sizeGroup(page, 3)).toHaveCount(0);
  await productForm(page).getByRole('button', { name: 'Add a size' }).click();
  await expect(sizeField(page, 3, 'Size name')).toBeFocused();
  await sizeField(page, 3, 'Size name').fill('Oversize');
  await sizeField(page, 3, 'Stock').fill('3');
  await sizeGroup(page, 3).getByRole('button', { name: 'Move up' }).click();
  await expect(sizeField(page, 2, 'Size name')).toHaveValue('Oversize');
  await save(page, 2);

  await page.reload();
  const sizes = [1, 2, 3].map((place) => sizeField(page, place, 'Size name'));
  await expect(sizes[0] as Locator).toHaveValue('Small pony');
  await expect(sizes[1] as Locator).toHaveValue('Oversize');
  await expect(sizes[2] as Locator).toHaveValue('Cob');
  await expect(sizeField(page, 3, 'Stock')).toHaveValue('7');
  await expect(sizeGroup(page, 4)).toHaveCount(0);
  const history = page.getByRole('table', { name: 'History' });
  await expect(history).toContainText('Size “Pony” renamed “Small pony”');
  await expect(history).toContainText('Size “Full” removed');
  await expect(history).toContainText('Size “Oversize” added, 3 in stock');

  // The rider's open cart follows the rename; the home page lists the sizes in their new order.
  await expect(cartTable(rider)).toContainText(itemText(blanket, 'Small pony'));
  await rider.goto('/home');
  await expect(productCard(rider, blanket).getByLabel('Size').getByRole('option')).toHaveText([
    'Choose a size',
    'Small pony',
    'Oversize (only 3 left)',
    'Cob',
  ]);
  await rider.context().close();
});

test('a hidden product leaves the home page; its rows in carts say so and checkout refuses them until removed', async ({
  page,
  browser,
  shop,
}) => {
  const boots = 'Ariat Westchester Boots';
  const rider = await anotherDevice(browser, shop);
  await signUpConfirmed(rider);
  await addToCart(rider, boots);
  await addToCart(rider, 'Anky Bridle');

  await signUpOwner(page, shop);
  await openProduct(page, boots);
  await field(page, 'Shown on the home page').uncheck();
  await save(page, 2);
  await openProducts(page);
  await expect(productRow(page, boots)).toContainText('Hidden');

  // The rider's cart, open all along, says so.
  const row = cartTable(rider).getByRole('row', { name: new RegExp(itemText(boots)) });
  await expect(row).toContainText('No longer available');
  await expect(cartTable(rider).getByRole('row', { name: /Anky Bridle/ })).not.toContainText('No longer available');
  await expectNoSevereAxeViolation(rider);
  await rider.goto('/home');
  await expect(productCard(rider, 'Anky Bridle')).toBeVisible();
  await expect(productCard(rider, boots)).toHaveCount(0);

  await rider.goto('/cart');
  await rider.getByRole('link', { name: 'Checkout' }).click();
  await fillAddress(rider);
  await checkoutForm(rider).getByRole('button', { name: 'Place order' }).click();
  await expect(rider.getByRole('alert')).toHaveText(
    'Sorry, some of your items are no longer available. Please remove them and order again.',
  );
  const line = rider.getByRole('row', { name: new RegExp(itemText(boots)) });
  await expect(line).toContainText('No longer available.');
  await expect(checkoutForm(rider).getByRole('button', { name: 'Place order' })).toBeDisabled();
  await line.getByRole('button', { name: `Remove ${itemText(boots)}` }).click();
  await expect(line).toHaveCount(0);
  await checkoutForm(rider).getByRole('button', { name: 'Place order' }).click();
  await expect(rider.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();

  await openProduct(page, boots);
  await field(page, 'Shown on the home page').check();
  await save(page, 3);
  await rider.goto('/home');
  await expect(productCard(rider, boots)).toBeVisible();
  await rider.context().close();
});

test('an owner adds a product with sizes, stock and a picture, and moves it up: open home pages follow', async ({
  page,
  browser,
  shop,
}) => {
  const whip = 'Piaffe Schooling Whip';
  const rider = await anotherDevice(browser, shop);
  await signUpConfirmed(rider);
  const before = await homeProducts(rider);
  expect(before).toHaveLength(8);

  await signUpOwner(page, shop);
  await openProducts(page);
  await page.getByRole('link', { name: 'Add a product' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();
  await expect(page).toHaveTitle('New product · Back office · Piaffe');
  await expectNoSevereAxeViolation(page);
  await expectFitsPhone(page);
  await field(page, 'Name').fill(whip);
  await field(page, 'Details').fill('A light schooling whip with a rubber grip.');
  await field(page, 'Price').fill('45');
  await field(page, 'Shown on the home page').check();
  await sizeField(page, 1, 'Size name').fill('100 cm');
  await sizeField(page, 1, 'Stock').fill('12');
  await productForm(page).getByRole('button', { name: 'Add a size' }).click();
  await sizeField(page, 2, 'Size name').fill('120 cm');
  await sizeField(page, 2, 'Stock').fill('2');
  await productForm(page).getByRole('button', { name: 'Add product' }).click();

  await expect(page.getByRole('heading', { level: 1, name: whip })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products\/9$/);
  await expect(page.getByRole('status')).toHaveText('The product is added. Give it a picture below.');
  await expect(field(page, 'Price')).toHaveValue('45.00');
  const picture = page.getByRole('form', { name: 'Picture' });
  await picture
    .getByLabel('New picture')
    .setInputFiles({ name: 'whip.png', mimeType: 'image/png', buffer: await pngPicture() });
  await picture.getByRole('button', { name: 'Upload picture' }).click();
  await expect(picture.getByRole('status')).toHaveText('The new picture is saved.');

  // The rider's home page, never reloaded, shows it last, with its picture and sizes.
  await expect.poll(() => homeProducts(rider)).toEqual([...before, whip]);
  const card = productCard(rider, whip);
  await expect(card.getByText('$45.00', { exact: true })).toBeVisible();
  await expect(card.getByRole('img', { name: whip })).toHaveAttribute('src', media);
  await expect(card.getByLabel('Size').getByRole('option')).toHaveText([
    'Choose a size',
    '100 cm',
    '120 cm (only 2 left)',
  ]);

  await openProducts(page);
  await expect(productRow(page, whip)).toContainText('100 cm: 12120 cm: 2');
  for (let moves = 0; moves < 8; moves++) {
    await page.getByRole('button', { name: `Move up ${whip}` }).click();
    await expect(page.getByRole('status')).toHaveText(`${whip} is now number ${8 - moves} in the list.`);
  }
  // First: no longer offered up, and the focus is on its way down.
  await expect(page.getByRole('button', { name: `Move down ${whip}` })).toBeFocused();
  await expect(productsTable(page).getByRole('row').nth(1)).toContainText(whip);
  await expect.poll(() => homeProducts(rider)).toEqual([whip, ...before]);
  await page.reload();
  await expect(productsTable(page).getByRole('row').nth(1)).toContainText(whip);
  await rider.context().close();
});

test('the history says what changed, when and by whom, newest first', async ({ page, shop }) => {
  const saddle = 'Albion SLK Saddle';
  const owner = await signUpOwner(page, shop);
  await openProduct(page, saddle);
  const rows = page.getByRole('table', { name: 'History' }).getByRole('row');
  await field(page, 'Price').fill('4,890.00');
  await field(page, 'Details').fill('A deep-seated dressage saddle.');
  await save(page, 2);
  await sizeField(page, 1, 'Size name').fill('16½"');
  await save(page, 3);

  // The header row, and one row for each save.
  await expect(rows).toHaveCount(1 + 2);
  const when = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/;
  await expect(rows.nth(1).getByRole('cell').nth(0)).toHaveText(when);
  await expect(rows.nth(1).getByRole('cell').nth(1)).toHaveText(owner.email);
  await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText('Size “16.5"” renamed “16½"”');
  await expect(rows.nth(2).getByRole('cell').nth(0)).toHaveText(when);
  await expect(rows.nth(2).getByRole('cell').nth(1)).toHaveText(owner.email);
  await expect(rows.nth(2).getByRole('cell').nth(2)).toHaveText('Details changed; Price $4,990.00 → $4,890.00');
});

test("a rider's open cart shows a new price at once, and checkout asks again before charging it", async ({
  page,
  browser,
  shop,
}) => {
  const bridle = 'Fellmore Bridle';
  const rider = await anotherDevice(browser, shop);
  await signUpConfirmed(rider);
  await addToCart(rider, bridle);
  await expect(totalCell(rider)).toHaveText('$344.49');
  const checkout = await rider.context().newPage();
  await checkout.goto('/checkout');
  await fillAddress(checkout);
  await expect(checkout.getByRole('row', { name: /^Total/ })).toContainText('$369.49');

  await signUpOwner(page, shop);
  await openProduct(page, bridle);
  await field(page, 'Price').fill('350.00');
  await save(page, 2);

  // No reload: the row and the total follow.
  await expect(cartTable(rider).getByRole('row', { name: new RegExp(itemText(bridle)) })).toContainText('$350.00');
  await expect(totalCell(rider)).toHaveText('$350.00');

  // The checkout page still shows the old total: the order is refused, and the page shows the new one.
  await checkoutForm(checkout).getByRole('button', { name: 'Place order' }).click();
  await expect(checkout.getByRole('alert')).toHaveText(
    'Your cart has changed since this page showed it. Please check your order and place it again.',
  );
  await expect(checkout.getByRole('row', { name: /^Total/ })).toContainText('$375.00');
  await checkoutForm(checkout).getByRole('button', { name: 'Place order' }).click();
  await expect(checkout.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(checkout.getByRole('row', { name: /^Total/ })).toContainText('$375.00');
  await rider.context().close();
});

test('two owners save the same product: the second is told it changed, keeps their input, and may reload', async ({
  page,
  browser,
  shop,
}) => {
  const boots = 'Carlson Tall Boots';
  const other = await anotherDevice(browser, shop);
  await signUpOwner(other, shop);
  await openProduct(other, boots);
  await signUpOwner(page, shop);
  await openProduct(page, boots);

  await field(other, 'Price').fill('410.00');
  await save(other, 2);

  await field(page, 'Name').fill('Carlson Tall Boots, black');
  await productForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(productForm(page).getByRole('alert')).toContainText(
    'Someone else has just changed this product. Your changes are not saved: see theirs, then make yours again.',
  );
  await expect(field(page, 'Name')).toHaveValue('Carlson Tall Boots, black');
  await expect(field(page, 'Price')).toHaveValue('398.99');
  await expectNoSevereAxeViolation(page);

  await productForm(page).getByRole('button', { name: 'Reload the product' }).click();
  await expect(field(page, 'Price')).toHaveValue('410.00');
  await expect(field(page, 'Name')).toHaveValue(boots);
  await field(page, 'Name').fill('Carlson Tall Boots, black');
  await save(page, 3);
  await other.context().close();
});
