// `npm run owner|stock|backup|restore -- ...`: builds when the sources changed (scripts/build.mjs), then runs the
// built command line `dist-server/<name>-cli.js` (src/server/<name>-cli.ts) with the arguments that follow its name.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, cliEntry } from './build.mjs';

const [, , name] = process.argv;
process.argv.splice(2, 1);
await buildIfStale();
await import(pathToFileURL(resolve(cliEntry(name))).href);
