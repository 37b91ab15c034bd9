// Types for the TypeScript that imports scripts/build.mjs (plain JavaScript): the tests' command lines.
export function cliEntry(name: string): string;
export function builtFromTheseSources(): boolean;
