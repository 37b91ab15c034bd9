import { addToCart, cartTable, deleteButtons, expect, itemText, signUp, test, totalCell } from './support';

test('an empty cart has the columns and a Total of exactly 0', async ({ page }) => {
  await signUp(page);
  await page.goto('/cart');
  const table = cartTable(page);
  await expect(table).toBeVisible();
  for (const name of ['Item', 'Qty.', 'Price']) {
    await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  }
  // No. is there for assistive technology but takes no room on screen.
  const number = table.getByRole('columnheader', { name: 'No.', exact: true });
  await expect(number).toHaveCount(1);
  const box = await number.boundingBox();
  expect((box?.width ?? 0) <= 1 && (box?.height ?? 0) <= 1).toBe(true);

  await expect(table.getByRole('rowheader', { name: 'Total' })).toBeVisible();
  await expect(totalCell(page)).toHaveText('0');
  await expect(deleteButtons(page)).toHaveCount(0);
});

test('rows show Qty. 1 and the price; Total sums exactly; delete removes a row', async ({ page }) => {
  await signUp(page);
  await addToCart(page, 'Anky Bridle');
  await addToCart(page, 'Fellmore Bridle');
  const table = cartTable(page);
  const anky = table.getByRole('row', { name: /Anky Bridle/ });
  await expect(anky.getByRole('cell')).toHaveText(['1', itemText('Anky Bridle'), '1', '$302.99', 'Delete']);
  const fellmore = table.getByRole('row', { name: /Fellmore Bridle/ });
  await expect(fellmore.getByRole('cell')).toHaveText(['2', itemText('Fellmore Bridle'), '1', '$344.49', 'Delete']);
  await expect(totalCell(page)).toHaveText('$647.48');

  await table.getByRole('button', { name: `Delete ${itemText('Anky Bridle')}` }).click();
  await expect(anky).toHaveCount(0);
  await expect(deleteButtons(page)).toHaveCount(1);
  await expect(totalCell(page)).toHaveText('$344.49');

  // The server forgot it too.
  await page.reload();
  await expect(deleteButtons(page)).toHaveCount(1);
  await table.getByRole('button', { name: `Delete ${itemText('Fellmore Bridle')}` }).click();
  await expect(totalCell(page)).toHaveText('0');
});

test('the same product may sit in the cart twice, one row per add', async ({ page }) => {
  await signUp(page);
  await addToCart(page, 'Crochet Saddle Blanket');
  await addToCart(page, 'Crochet Saddle Blanket');
  await expect(deleteButtons(page)).toHaveCount(2);
  await expect(totalCell(page)).toHaveText('$598.00');
  await deleteButtons(page).first().click();
  await expect(deleteButtons(page)).toHaveCount(1);
  await expect(totalCell(page)).toHaveText('$299.00');
});

test('Continue Shopping and the header view items link lead home', async ({ page }) => {
  await signUp(page);
  await addToCart(page, 'Dakota Barn Jacket');
  await page.getByRole('link', { name: 'Continue Shopping' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'view cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'view items' }).click();
  await expect(page).toHaveURL(/\/home$/);
});
