// `npm run owner -- add <email>`, `npm run owner -- remove <email>`, `npm run owner -- list`: who runs the shop's
// back office (docs/product.md §11), against the database DATABASE_URL names (the same settings as the server).
import { emailSchema } from '../shared/validation';
import { createRoles } from './auth/roles';
import { fail, runOnShopDatabase } from './cli';

const usage = 'Usage: npm run owner -- add <email> | remove <email> | list';

const [command, email, ...extra] = process.argv.slice(2);
const needsEmail = command === 'add' || command === 'remove';
if (extra.length > 0 || !(needsEmail || command === 'list') || needsEmail !== (email !== undefined)) fail(usage, 2);
if (email !== undefined && !emailSchema.safeParse(email).success) fail(`"${email}" is not an e-mail address.`);

await runOnShopDatabase(async (db) => {
  const roles = createRoles(db);
  const noAccount = () => fail(`No account has the e-mail address ${email}. The person signs up in the shop first.`);
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
});
