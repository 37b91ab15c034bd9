// `npm run backup -- FILE`, `npm run restore -- FILE [--force]`: builds when the sources changed (scripts/build.mjs),
// then runs the built command line (src/server/backup-cli.ts).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { backupEntry, buildIfStale } from './build.mjs';

await buildIfStale();
await import(pathToFileURL(resolve(backupEntry)).href);
