// `npm run owner -- add <email>`, `npm run owner -- remove <email>`, `npm run owner -- list`: who runs the shop's
// back office (docs/product.md §11), against the database DATABASE_URL names (the same settings as the server).
import { emailSchema } from '../shared/validation';
import { createAuth } from './auth/auth';
import { createRoles } from './auth/roles';
import { ConfigError, loadConfig } from './config';
import { migrateDatabase, openDatabase } from './db/connect';
import { createDb } from './db/database';
import { createLogger } from './log';

const usage = 'Usage: npm run owner -- add <email> | remove <email> | list';

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function run(args: string[]): Promise<string> {
  const [command, email, ...extra] = args;
  const needsEmail = command === 'add' || command === 'remove';
  if (extra.length > 0 || !(needsEmail || command === 'list') || needsEmail !== (email !== undefined)) fail(usage, 2);
  if (email !== undefined && !emailSchema.safeParse(email).success) fail(`"${email}" is not an e-mail address.`);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`piaffe: ${error.message}`);
    throw error;
  }
  // Only what goes wrong is worth a line here; the answer is the command's output.
  const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'warn');
  const opened = openDatabase(config.databaseUrl, log);
  const auth = createAuth(opened.db, opened.dialect, config, log);
  await migrateDatabase(opened, auth);
  const db = await createDb(opened, log);
  const roles = createRoles(db);
  const noAccount = () => fail(`No account has the e-mail address ${email}. The person signs up in the shop first.`);
  try {
    if (command === 'list') {
      const owners = await roles.owners();
      return owners.length > 0
        ? owners.join('\n')
        : 'There are no owners yet. Make one with: npm run owner -- add <email>';
    }
    const address = (email as string).toLowerCase();
    if (command === 'add') {
      const result = await roles.grant(address);
      if (result === 'no-account') noAccount();
      return result === 'granted' ? `${address} is now an owner of the shop.` : `${address} is already an owner.`;
    }
    const result = await roles.revoke(address);
    if (result === 'no-account') noAccount();
    return result === 'revoked' ? `${address} is no longer an owner.` : `${address} was not an owner.`;
  } finally {
    await db.close();
  }
}

const output = await run(process.argv.slice(2)).catch((error: Error) =>
  fail(`piaffe: ${error.message || error.name}${error.cause ? ` (${String(error.cause)})` : ''}`),
);
process.stdout.write(`${output}\n`);
