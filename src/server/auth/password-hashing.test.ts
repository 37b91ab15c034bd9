import { verifyPassword } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { boundedPasswordHashing, defaultPasswordHashCost } from './password-hashing';

describe('password hashing at a cost (docs/decisions/0056)', () => {
  it("makes Better Auth's own hash at the default cost, and verifies Better Auth's hashes", async () => {
    const hashing = boundedPasswordHashing();
    const hash = await hashing.hash('secret1');
    expect(hash.split(':')).toHaveLength(2);
    expect(await verifyPassword({ hash, password: 'secret1' })).toBe(true);
    expect(await hashing.verify({ hash, password: 'secret1' })).toBe(true);
    expect(await hashing.verify({ hash, password: 'secret2' })).toBe(false);
  });

  it('names a cost other than the default in the hash, and verifies it at that cost', async () => {
    const test = boundedPasswordHashing(1024);
    const hash = await test.hash('secret1');
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}:1024$/);
    expect(await test.verify({ hash, password: 'secret1' })).toBe(true);
    expect(await test.verify({ hash, password: 'secret2' })).toBe(false);
    // A test's shop still lets in a rider whose hash was made at the default (a demo shop's, a backup's).
    expect(await test.verify({ hash: await boundedPasswordHashing().hash('secret1'), password: 'secret1' })).toBe(true);
  });

  it("lets no weaker hash in at the default cost: a test's database opened by a real shop", async () => {
    const hash = await boundedPasswordHashing(1024).hash('secret1');
    expect(await boundedPasswordHashing(defaultPasswordHashCost).verify({ hash, password: 'secret1' })).toBe(false);
    const stronger = boundedPasswordHashing(32_768);
    expect(await stronger.verify({ hash: await stronger.hash('secret1'), password: 'secret1' })).toBe(true);
    // A stronger shop still lets in the hashes made at the default before (the cost may be raised).
    const before = await boundedPasswordHashing().hash('secret1');
    expect(await stronger.verify({ hash: before, password: 'secret1' })).toBe(true);
  }, 30_000);
});
