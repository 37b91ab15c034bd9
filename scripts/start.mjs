// `npm start`: builds when the sources changed (scripts/build.mjs), then runs the built server.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, serverEntry } from './build.mjs';

await buildIfStale();
// Stack traces in the log name the TypeScript sources (the build writes source maps).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(resolve(serverEntry)).href);
