import type { Page } from '@playwright/test';
import {
  addToCart,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  makeOwner,
  placeOrder,
  productCard,
  signUpConfirmed,
  test,
} from './support';

interface Screen {
  name: string;
  /** Leaves the page on the screen, whole, signed in when it needs to be. */
  open(page: Page): Promise<void>;
}

const screens: Screen[] = [
  {
    name: 'signup-login',
    open: async (page) => {
      await page.goto('/signup-login');
      // The load event can come before the app has drawn the page (it waits for the page's own chunk).
      await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
    },
  },
  {
    name: 'home',
    open: async (page) => {
      await signUpConfirmed(page);
    },
  },
  {
    name: 'home, asked to choose a size',
    open: async (page) => {
      await signUpConfirmed(page);
      await productCard(page, 'Anky Bridle').getByRole('button', { name: 'Add to cart: Anky Bridle' }).click();
      await expect(productCard(page, 'Anky Bridle').getByText('Please choose a size.')).toBeVisible();
    },
  },
  {
    name: 'cart with items',
    open: async (page) => {
      await signUpConfirmed(page);
      await addToCart(page, 'Anky Bridle');
      await addToCart(page, 'Ariat Westchester Boots');
    },
  },
  {
    name: 'manage-account',
    open: async (page) => {
      await signUpConfirmed(page);
      await page.goto('/manage-account');
      await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    },
  },
  {
    name: 'checkout',
    open: async (page) => {
      await signUpConfirmed(page);
      await addToCart(page, 'Anky Bridle');
      await page.getByRole('link', { name: 'Checkout' }).click();
      await fillAddress(page);
    },
  },
  {
    name: 'order confirmation',
    open: async (page) => {
      await signUpConfirmed(page);
      await addToCart(page, 'Anky Bridle');
      await placeOrder(page);
    },
  },
  {
    name: 'orders',
    open: async (page) => {
      await signUpConfirmed(page);
      await addToCart(page, 'Anky Bridle');
      await placeOrder(page);
      await page.goto('/orders');
      await expect(page.getByRole('table', { name: 'Your orders' })).toBeVisible();
    },
  },
  {
    name: 'reset-password',
    open: async (page) => {
      await page.goto('/reset-password');
      await expect(page.getByRole('form', { name: 'Forgot your password?' })).toBeVisible();
    },
  },
  {
    name: 'admin orders',
    open: async (page) => {
      makeOwner(await signUpConfirmed(page));
      await addToCart(page, 'Anky Bridle');
      await placeOrder(page);
      await page.goto('/admin');
      await expect(page.getByRole('table', { name: 'Orders' })).toBeVisible();
    },
  },
  {
    name: 'admin order',
    open: async (page) => {
      makeOwner(await signUpConfirmed(page));
      await addToCart(page, 'Anky Bridle');
      const number = await placeOrder(page);
      await page.goto(`/admin/orders/${number}`);
      await expect(page.getByRole('button', { name: 'Mark paid' })).toBeVisible();
    },
  },
  {
    name: 'admin outbox',
    open: async (page) => {
      makeOwner(await signUpConfirmed(page));
      await addToCart(page, 'Anky Bridle');
      await placeOrder(page);
      await page.goto('/admin/outbox');
      await expect(page.getByRole('table', { name: 'Outbox' })).toBeVisible();
    },
  },
  {
    name: 'paid order with its invoice',
    open: async (page) => {
      makeOwner(await signUpConfirmed(page));
      await addToCart(page, 'Anky Bridle');
      const number = await placeOrder(page);
      await page.goto(`/admin/orders/${number}`);
      await page.getByRole('button', { name: 'Mark paid' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'marked paid' })).toBeVisible();
      await page.goto(`/orders/${number}`);
      await expect(page.getByRole('link', { name: 'Download invoice (PDF)' })).toBeVisible();
    },
  },
  {
    name: 'admin invoices',
    open: async (page) => {
      makeOwner(await signUpConfirmed(page));
      await addToCart(page, 'Anky Bridle');
      const number = await placeOrder(page);
      await page.goto(`/admin/orders/${number}`);
      await page.getByRole('button', { name: 'Mark paid' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'marked paid' })).toBeVisible();
      await page.goto('/admin/invoices');
      await expect(page.getByRole('table', { name: /^Invoices and credit notes of / })).toBeVisible();
    },
  },
  {
    name: '404',
    open: async (page) => {
      await page.goto('/nowhere');
      await expect(page.getByRole('heading', { name: 'Snap!' })).toBeVisible();
    },
  },
];

for (const screen of screens) {
  test.describe(screen.name, () => {
    test('has no serious or critical axe violation', async ({ page }) => {
      await screen.open(page);
      await expectNoSevereAxeViolation(page);
    });

    test('fits 375 px without horizontal scrolling, with no serious or critical axe violation there', async ({
      page,
    }) => {
      await page.setViewportSize({ width: 375, height: 740 });
      await screen.open(page);
      await expect(page.getByRole('contentinfo')).toBeVisible();
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(375);
      // A table wider than the phone scrolls in a box of its own, which the keyboard must reach (data-table.tsx).
      await expectNoSevereAxeViolation(page);
    });

    test('shows where the keyboard focus is', async ({ page }) => {
      await screen.open(page);
      // Start from the top of the document, as a keyboard user arriving on the page.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      let checked = 0;
      for (let step = 0; step < 6; step += 1) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement;
          if (!element || element === document.body) return null;
          const style = getComputedStyle(element);
          return {
            focusVisible: element.matches(':focus-visible'),
            outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
          };
        });
        if (focus === null) break; // past the last control of the page
        expect(focus).toEqual({ focusVisible: true, outline: true });
        checked += 1;
      }
      expect(checked).toBeGreaterThanOrEqual(2);
    });
  });
}

test('the sign-up form works from the keyboard alone', async ({ page }) => {
  await page.goto('/signup-login');
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('E-mail').focus();
  await page.keyboard.type(`keys-${Date.now()}@example.test`);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('Canter-42');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/home$/);
  // The size first: the select takes the arrow keys, Tab goes on to the button.
  const card = productCard(page, 'Anky Bridle');
  await card.getByLabel('Size').focus();
  await page.keyboard.press('ArrowDown');
  await expect(card.getByLabel('Size')).toHaveValue('Pony');
  await page.keyboard.press('Tab');
  await expect(card.getByRole('button', { name: 'Add to cart: Anky Bridle' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/cart$/);
});
