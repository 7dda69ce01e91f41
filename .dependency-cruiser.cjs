/**
 * The arrows of the house (README, "Layout"): functions → lib/<area> → lib/platform. `npm test`
 * runs this through `npm run arch`; a violation names the offending import.
 */
const AREAS = 'ideas|sops|webhooks|journeys|surveys|knowledge-bank|introduction|mcp';
/** What sits above lib: Lambda entries, the sandbox, the CLI, CDK, scripts, bench and tests. */
const ABOVE_LIB = '^(functions|local|cli|cdk|scripts|bench|test)/';

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
        // A store may be one file or a folder of one file per entity (lib/<area>/store/).
        path: inAnArea('(store/|(store|record|schemas|routes)\\.ts$)'),
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
      to: { path: inAnArea('(store/|store\\.ts$)') },
    },
    {
      name: 'dynamodb-only-in-stores',
      comment:
        "Only a store (lib/<area>/store/ or store.ts, a sub-area's too) and the data kit (lib/platform/data/) talk to DynamoDB; " +
        'commands, rules and handlers go through them. Operator actions (lib/admin/) are their own store.',
      severity: 'error',
      from: {
        path: '^(lib|functions)/',
        pathNot: [...inAnArea('(store/|store\\.ts$)'), '^lib/(platform/data|admin)/'],
      },
      to: { path: 'node_modules/@aws-sdk/lib-dynamodb/' },
    },
    {
      name: 'cdk-never-imports-area-internals',
      comment: "CDK reads the manifest, routes and an area's pipeline definitions, never its stores, records, schemas or commands.",
      severity: 'error',
      from: { path: '^cdk/' },
      to: {
        path: inAnArea('(store/|commands/|(store|record|schemas)\\.ts$)'),
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
    exclude: { path: '^(node_modules|cdk\\.out)' },
  },
};
