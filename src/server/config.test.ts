import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const sqlite = { DATABASE_URL: 'file:/tmp/piaffe-config-test/shop.db', AUTH_SECRET: 'x'.repeat(32) };

describe('loadConfig', () => {
  it('needs nothing for a SQLite shop', () => {
    const config = loadConfig({ DATABASE_URL: sqlite.DATABASE_URL });
    expect(config).toMatchObject({ port: 3000, host: '0.0.0.0', publicUrl: 'http://localhost:3000', logLevel: 'info' });
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('takes every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://shop@db.example/shop',
      AUTH_SECRET: 'y'.repeat(40),
      PUBLIC_URL: 'https://shop.example.com/',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      SMTP_URL: 'smtps://shop:pw@mail.example.com:465',
      MAIL_FROM: 'Piaffe Shop <orders@shop.example.com>',
      MAIL_RETRY_DELAYS: '1, 2.5,60',
      METRICS_TOKEN: 'm'.repeat(16),
    });
    expect(config).toMatchObject({
      metricsToken: 'm'.repeat(16),
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://shop.example.com',
      trustProxy: true,
      logLevel: 'warn',
      mail: {
        smtpUrl: 'smtps://shop:pw@mail.example.com:465',
        from: 'Piaffe Shop <orders@shop.example.com>',
        retryDelaysMs: [1000, 2500, 60_000],
      },
    });
  });

  it('takes cards only with both Stripe keys, talks to Stripe unless STRIPE_API_URL says otherwise, waits an hour', () => {
    expect(loadConfig(sqlite)).toMatchObject({ stripe: undefined, cardPaymentMs: 3_600_000 });
    const config = loadConfig({
      ...sqlite,
      STRIPE_SECRET_KEY: 'sk_live_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      CARD_PAYMENT_MINUTES: '90',
    });
    expect(config.stripe).toEqual({ secretKey: 'sk_live_abc123', webhookSecret: 'whsec_abc123', apiUrl: undefined });
    expect(config.cardPaymentMs).toBe(90 * 60_000);
    const local = loadConfig({
      ...sqlite,
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(local.stripe?.apiUrl?.href).toBe('http://127.0.0.1:12111/');
  });

  it('leaves e-mail unsent without SMTP_URL, from an address of the shop, retried five times over six hours', () => {
    const { mail } = loadConfig({ ...sqlite, PUBLIC_URL: 'https://shop.example.com' });
    expect(mail).toEqual({
      smtpUrl: undefined,
      localMailbox: false,
      from: 'Piaffe <shop@shop.example.com>',
      retryDelaysMs: [30_000, 120_000, 600_000, 3_600_000, 21_600_000],
    });
  });

  it.each([
    [undefined, true],
    ['http://localhost:3000', true],
    ['http://LOCALHOST:3000', true],
    ['http://127.0.0.1:3000', true],
    ['http://127.1:3000', true],
    ['http://127.200.3.4', true],
    ['http://[::1]:3000', true],
    ['https://shop.example.com', false],
    ['http://localhost.example.com:3000', false],
    ['http://shop.localhost:3000', false],
    ['http://localhost.:3000', false],
    ['http://0.0.0.0:3000', false],
    ['http://10.0.0.5:3000', false],
    ['http://128.0.0.1:3000', false],
    ['http://[::ffff:127.0.0.1]:3000', false],
    ['http://[::2]:3000', false],
  ])(
    'keeps e-mails in a local mailbox without SMTP_URL only when PUBLIC_URL (%s) is this machine: %s',
    (url, local) => {
      const env = { ...sqlite, ...(url === undefined ? {} : { PUBLIC_URL: url }) };
      expect(loadConfig(env).mail.localMailbox).toBe(local);
      expect(loadConfig({ ...env, SMTP_URL: 'smtp://mail.example.com' }).mail.localMailbox).toBe(false);
    },
  );

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a port number/],
    [{ PORT: '70000' }, /^PORT must be a port number/],
    [{ PORT: '' }, /^PORT must be a port number/],
    [{ HOST: ' ' }, /^HOST must be an address/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with file:, postgres:\/\/ or postgresql:\/\//],
    [{ DATABASE_URL: 'file:' }, /^DATABASE_URL "file:" names no file/],
    [
      { DATABASE_URL: 'postgres://x', AUTH_SECRET: '' },
      /^AUTH_SECRET must be set when DATABASE_URL is a PostgreSQL database/,
    ],
    [{ AUTH_SECRET: 'short' }, /^AUTH_SECRET must be at least 32 characters/],
    [{ PUBLIC_URL: 'shop.example.com' }, /^PUBLIC_URL must be a URL/],
    [{ PUBLIC_URL: 'ftp://shop.example.com' }, /^PUBLIC_URL must start with http:\/\/ or https:\/\//],
    [{ PUBLIC_URL: 'https://shop.example.com/shop' }, /^PUBLIC_URL must be an origin only/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be 1/],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of debug, info, warn, error, silent/],
    [{ SMTP_URL: 'mail.example.com' }, /^SMTP_URL must be a URL/],
    [{ SMTP_URL: 'http://mail.example.com' }, /^SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
    [{ MAIL_FROM: 'shop' }, /^MAIL_FROM must be an address/],
    [{ MAIL_FROM: 'Shop <shop@example.com>\r\nBcc: x@example.com' }, /^MAIL_FROM must be an address/],
    [{ MAIL_RETRY_DELAYS: '30,soon' }, /^MAIL_RETRY_DELAYS must be up to 20 pauses/],
    [{ MAIL_RETRY_DELAYS: '0' }, /^MAIL_RETRY_DELAYS must be up to 20 pauses/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN must be at least 16 printable characters/],
    [{ METRICS_TOKEN: 'a token with spaces in it' }, /^METRICS_TOKEN must be at least 16 printable characters/],
    [
      { STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
      /^STRIPE_SECRET_KEY must be a secret key/,
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_test_ab_c', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
      /^STRIPE_SECRET_KEY must be sk_test_ followed by letters and digits only, but character 11 is "_"/,
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_live_abc ', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
      /^STRIPE_SECRET_KEY must be sk_live_ followed by letters and digits only, but character 12 is " "/,
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_test_', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
      /^STRIPE_SECRET_KEY is only the prefix sk_test_/,
    ],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc' }, /^STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY/],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, /^STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not/],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'abc' }, /^STRIPE_WEBHOOK_SECRET must be the signing/],
    [
      { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_API_URL: 'not a url' },
      /^STRIPE_API_URL must be a URL/,
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_API_URL: 'ftp://127.0.0.1:12111' },
      /^STRIPE_API_URL must be an http:\/\/ or https:\/\/ origin/,
    ],
    [
      {
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
      },
      /^STRIPE_API_URL is set with a live key/,
    ],
    [{ CARD_PAYMENT_MINUTES: '0' }, /^CARD_PAYMENT_MINUTES must be a number of minutes above 0 and at most 1440/],
    [{ CARD_PAYMENT_MINUTES: '1441' }, /^CARD_PAYMENT_MINUTES must be a number of minutes/],
    [{ CARD_PAYMENT_MINUTES: 'an hour' }, /^CARD_PAYMENT_MINUTES must be a number of minutes/],
  ])('refuses %o with one line that says what is wrong', (bad, message) => {
    const load = () => loadConfig({ ...sqlite, ...bad });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
    try {
      load();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  describe('PASSWORD_HASH_COST (docs/decisions/0056)', () => {
    it("is Better Auth's scrypt N 16384 when unset, as `npm start` runs", () => {
      expect(loadConfig(sqlite).passwordHashCost).toBe(16_384);
      expect(loadConfig({ ...sqlite, PASSWORD_HASH_COST: '' }).passwordHashCost).toBe(16_384);
    });

    it('takes a stronger cost anywhere, and a weaker one only in a test on this machine', () => {
      const publicShop = { ...sqlite, PUBLIC_URL: 'https://shop.example.com' };
      expect(loadConfig({ ...publicShop, PASSWORD_HASH_COST: '32768' }).passwordHashCost).toBe(32_768);
      const test = { PASSWORD_HASH_COST: '1024', PIAFFE_TEST: '1' };
      expect(loadConfig({ ...sqlite, ...test }).passwordHashCost).toBe(1024);
      expect(loadConfig({ ...sqlite, ...test, PUBLIC_URL: 'http://127.0.0.1:3100' }).passwordHashCost).toBe(1024);
      expect(() => loadConfig({ ...sqlite, PASSWORD_HASH_COST: '1024' })).toThrow(
        /PASSWORD_HASH_COST 1024 is weaker than the default 16384: only a test/,
      );
      expect(() => loadConfig({ ...sqlite, PASSWORD_HASH_COST: '1024', PIAFFE_TEST: 'true' })).toThrow(ConfigError);
      expect(() => loadConfig({ ...publicShop, ...test })).toThrow(/weaker than the default/);
    });

    it.each(['1000', '512', '262144', 'abc', '16384.5'])('refuses %s', (value) => {
      expect(() => loadConfig({ ...sqlite, PASSWORD_HASH_COST: value, PIAFFE_TEST: '1' })).toThrow(
        /PASSWORD_HASH_COST must be a power of two from 1024 to 131072/,
      );
    });
  });
});
