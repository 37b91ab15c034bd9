import { describe, expect, it } from 'vitest';
import { Client, randomEmail } from '../support/client';
import { type CommandResult, runCommand } from '../support/command-line';
import { serverOnOwnDatabase } from '../support/test-database';

/** `npm run owner -- ...` (src/server/owner-cli.ts) as a child process, against a database a server also runs on. */
const shop = serverOnOwnDatabase();

function owner(...args: string[]): Promise<CommandResult> {
  return runCommand('owner', shop.database.url, args, { LOG_LEVEL: 'warn' });
}

// Each test starts the command line several times, a Node process through tsx each: seconds apiece while the
// rest of the suite runs on the same two cores (over 20 s for a test on 2026-11-25), so the bound is a minute.
describe('npm run owner', { timeout: 60_000 }, () => {
  it('makes an account an owner, lists the owners, and ends the role; the server checks it at once', async () => {
    const boss = new Client(shop.server.url);
    const { email } = await boss.signup();
    expect((await boss.json('GET', '/api/admin/orders')).status).toBe(403);
    // The session is in the server's cache now, as a rider's (the home page's live stock opens it).
    expect((await boss.session()).body.role).toBe('rider');

    expect(await owner('add', email.toUpperCase())).toEqual({
      code: 0,
      stdout: `${email} is now an owner of the shop.\n`,
      stderr: '',
    });
    expect((await boss.json('GET', '/api/admin/orders')).status).toBe(200);
    // The pages learn it at their next load, though the command ran in another process (on SQLite, unheard).
    expect((await boss.session()).body.role).toBe('owner');
    expect((await owner('add', email)).stdout).toBe(`${email} is already an owner.\n`);
    expect((await owner('list')).stdout).toContain(`${email}\n`);

    expect(await owner('remove', email)).toMatchObject({ code: 0, stdout: `${email} is no longer an owner.\n` });
    expect((await boss.json('GET', '/api/admin/orders')).status).toBe(403);
    expect((await boss.session()).body.role).toBe('rider');
    expect((await owner('remove', email)).stdout).toBe(`${email} was not an owner.\n`);
  });

  it('says so, with exit code 1, for an e-mail without an account or that is not one', async () => {
    const email = randomEmail();
    // Refusals change nothing, so the commands run side by side, each a process of its own.
    const [add, remove, nobody] = await Promise.all([
      owner('add', email),
      owner('remove', email),
      owner('add', 'nobody'),
    ]);
    for (const result of [add, remove]) {
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `No account has the e-mail address ${email}. The person signs up in the shop first.\n`,
      });
    }
    expect(nobody).toMatchObject({ code: 1, stderr: '"nobody" is not an e-mail address.\n' });
  });

  it('shows how to use it, with exit code 2, for anything else', async () => {
    const misused = [[], ['add'], ['list', 'x@example.com'], ['grant', 'x@example.com'], ['add', 'a@b.co', 'c']];
    // Each a process of its own, side by side: none changes anything.
    for (const result of await Promise.all(misused.map((args) => owner(...args)))) {
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Usage: npm run owner -- add <email> | remove <email> | list\n',
      });
    }
  });

  it('says a bad setting in one line, with exit code 1', async () => {
    const { code, stderr } = await runCommand('owner', 'mysql://nope', ['list']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^piaffe: DATABASE_URL must start with file:, postgres:\/\/ or postgresql:\/\/.*\n$/);
  });
});
