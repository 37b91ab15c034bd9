// The boundaries of src/ (docs/decisions/0057-boundaries-that-hold.md), checked by `npm test`'s lint step
// (`npm run lint:boundaries`). Each rule says why; a rule broken is fixed where the import is, not here.

/** The server's infrastructure: the database, HTTP plumbing and e-mail. It serves every feature and knows none. */
const infrastructure = '^src/server/(db|http|mail)/';
/**
 * The server's features: any folder of src/server but the infrastructure's and `places`, which is reference data (ISO
 * 3166's countries and subdivisions, read from a package) that imports nothing of the server (its own rule below).
 */
const domain = '^src/server/(?!(db|http|mail|places)/)[^/]+/';
const migrations = '^src/server/db/migrations/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'No import cycle in src/: a cycle makes two modules one (neither can be read, tested or changed alone) and ' +
        'leaves the order in which their top level runs to chance. Move what both need to where both belong.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No cycle between folders of src/ either.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true, viaNot: '^src/server$' },
    },
    {
      name: 'infrastructure-knows-no-feature',
      comment:
        'src/server/db, http and mail serve every feature and import none (orders, invoices, payments, catalogue, ' +
        'cart, stock, discounts, settings...): a feature is given to them (a callback, a value), so that changing ' +
        'a feature never changes the plumbing under all of them.',
      severity: 'error',
      from: { path: infrastructure, pathNot: '\\.test\\.tsx?$' },
      to: { path: domain },
    },
    {
      name: 'migrations-are-frozen',
      comment:
        'A migration imports nothing outside src/server/db/migrations but Kysely: what it needs of the code of its ' +
        'day is copied into it, so that changing the live code never changes what an old migration does.',
      severity: 'error',
      from: { path: migrations, pathNot: '\\.test\\.tsx?$' },
      to: { pathNot: [migrations, '^node_modules/kysely/'] },
    },
    {
      name: 'places-are-reference-data',
      comment:
        'src/server/places is ISO 3166 read from a package, which the e-mails, the PDFs and the features all print: ' +
        'it imports nothing of the server, so that anything may use it.',
      severity: 'error',
      from: { path: '^src/server/places/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/server/(?!places/)' },
    },
    {
      name: 'shared-is-shared',
      comment: 'src/shared is what both sides use: it imports neither side.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(server|client)/' },
    },
    {
      name: 'client-without-server',
      comment: "The browser's code never imports the server's (its secrets, its Node modules); both use src/shared.",
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing would fail at run time.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Tests may import anything; the rules are about the shop's own code.
    exclude: { path: '\\.test\\.tsx?$' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still a cycle, and a migration's types are frozen with it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
