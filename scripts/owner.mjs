// `npm run owner -- <command>`: builds when the sources changed (scripts/build.mjs), then runs the built command
// line (src/server/owner-cli.ts).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, ownerEntry } from './build.mjs';

await buildIfStale();
await import(pathToFileURL(resolve(ownerEntry)).href);
