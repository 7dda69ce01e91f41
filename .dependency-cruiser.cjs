/**
 * The arrows of the house (README, "Layout"): functions → lib/<area> → lib/platform. `npm test`
 * runs this through `npm run arch`; a violation names the offending import.
 */
const AREAS = 'ideas|sops|webhooks|journeys|surveys|knowledge-bank|introduction|mcp|usage';
/** What sits above lib: Lambda entries, the sandbox, the CLI, CDK, scripts, bench and tests. */
const ABOVE_LIB = '^(functions|local|cli|cdk|scripts|bench|test)/';

/**
 * The data kit's modules that do I/O (lib/platform/data/): what only a store may call. The rest of the kit
 * is pure (keys, conditions, entities, projection, update, compressed-json, …) or a platform store.
 */
const KIT_CALLS = 'client|batch|transact|conditional-update|list-walk|sharded-ranges|query-all|idempotency';

/**
 * `rest` (a pattern) in an area's top folder or in any of its sub-areas' (lib/surveys/responses/). Two
 * patterns, not one with an optional `([a-z-]+/)?`: safe-regex flags that nested quantifier.
 */
const inAnArea = (rest) => [`^lib/(${AREAS})/${rest}`, `^lib/(${AREAS})/[a-z-]+/${rest}`];

module.exports = {
  forbidden: [
    {
      name: 'platform-knows-no-area',
      comment: 'lib/platform is what every area stands on: it may not import an area, the manifest, admin or anything above lib.',
      severity: 'error',
      from: { path: '^lib/platform/' },
      to: { path: ['^lib/(?!platform/)', ABOVE_LIB] },
    },
    {
      name: 'no-reach-into-another-area',
      comment:
        "An area never imports another area's store, record, schemas or routes, in its top folder or any sub-area's " +
        '(lib/surveys/responses/record.ts); the owning area exports one small named function for it (e.g. lib/ideas/stream.ts).',
      severity: 'error',
      from: { path: `^lib/(${AREAS})/` },
      to: {
        // A store is a folder of one file per entity (lib/<area>/store/<entity>.ts).
        path: inAnArea('(store/[a-z-]+|record|schemas|routes)\\.ts$'),
        pathNot: '^lib/$1/',
      },
    },
    {
      name: 'lib-never-imports-entry-points',
      comment: 'Lambda entries, the sandbox, the CLI, CDK, scripts, bench and tests sit above lib, never below it.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: ABOVE_LIB },
    },
    {
      name: 'a-handler-keeps-to-its-area',
      comment:
        'functions/<area>/ imports its own area (its commands, routes, stream and queue readers) and the platform, never another ' +
        "area: a command that needs another area calls that area's public module. The one table-stream entry of two areas' " +
        'readers (functions/table-stream/) is the exception by design.',
      severity: 'error',
      from: { path: '^functions/(ideas|sops|webhooks|journeys|surveys|knowledge-bank|mcp)/' },
      to: { path: `^lib/(${AREAS})/`, pathNot: '^lib/$1/' },
    },
    {
      name: 'a-handler-calls-a-command',
      comment: "A handler is an adapter: it reaches data only through its area's command (lib/<area>/commands/), never a store.",
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: inAnArea('store/[a-z-]+\\.ts$') },
    },
    {
      name: 'dynamodb-only-in-stores',
      comment:
        "Only a store (lib/<area>/store/<entity>.ts, a sub-area's too) and the data kit (lib/platform/data/) talk to DynamoDB; " +
        'commands, rules and handlers go through them. Operator actions (lib/admin/) are their own store.',
      severity: 'error',
      from: {
        path: '^(lib|functions)/',
        pathNot: [...inAnArea('store/'), '^lib/(platform/data|admin)/'],
      },
      to: { path: 'node_modules/@aws-sdk/(lib-dynamodb|client-dynamodb)/' },
    },
    {
      name: 'only-stores-are-the-door',
      comment:
        "Only a store (lib/<area>/store/<entity>.ts, a sub-area's too), the platform and operator actions (lib/admin/) use the " +
        "data kit's calls: its client, batch reads and writes, transactions, conditional updates, list walks, sharded reads, " +
        "and createOnce. A command or rule asks a store, which answers in the area's terms (an " +
        "outcome or the area's error), never the kit's. The kit's pure helpers (keys, conditions, entity declarations, " +
        "projection, update builder, compressed JSON) are open to all; so are the platform's own stores (workspaces, developer " +
        "keys, table migrations), which answer in the platform's terms, and type-only imports. The swc parser does not mark an " +
        'import type-only, so a type a command needs lives in a pure module (idempotent-request.ts).',
      severity: 'error',
      from: {
        path: '^(lib|functions)/',
        pathNot: [...inAnArea('store/'), '^lib/(platform|admin)/'],
      },
      to: {
        path: `^lib/platform/data/(${KIT_CALLS})\\.ts$`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'cdk-never-imports-area-internals',
      comment: "CDK reads the manifest, routes and an area's pipeline definitions, never its stores, records, schemas or commands.",
      severity: 'error',
      from: { path: '^cdk/' },
      to: {
        path: inAnArea('(commands/|(store/[a-z-]+|record|schemas)\\.ts$)'),
      },
    },
    {
      name: 'functions-do-not-import-functions',
      comment: 'One Lambda entry per operation: shared code belongs in lib/.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^functions/' },
    },
    {
      name: 'areas-are-not-operator-tools',
      comment: 'Operator actions (lib/admin) may use the areas; the request path of an area never needs them.',
      severity: 'error',
      from: { path: `^(lib/(${AREAS})|functions)/` },
      to: { path: '^lib/admin/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // TypeScript 7 (the native compiler) has no JS API for dependency-cruiser to parse with; swc parses the same syntax.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    // node_modules is only not followed, never excluded: an excluded module's imports vanish from the graph, so a rule
    // on a package (dynamodb-only-in-stores) could never fire.
    exclude: { path: '^cdk\\.out' },
  },
};
