/**
 * The arrows of the house (README, "Layout"): functions → lib/<area> → lib/platform. `npm test`
 * runs this through `npm run arch`; a violation names the offending import.
 */
const AREAS = 'ideas|sops|webhooks|journeys|surveys|knowledge-bank|introduction|mcp';

module.exports = {
  forbidden: [
    {
      name: 'platform-knows-no-area',
      comment: 'lib/platform is what every area stands on: it may not import an area, the manifest, admin or anything above lib.',
      severity: 'error',
      from: { path: '^lib/platform/' },
      to: { path: ['^lib/(?!platform/)', '^(functions|local|cli|cdk|scripts|bench|test)/'] },
    },
    {
      name: 'no-reach-into-another-area',
      comment:
        "An area never imports another area's store, record or schemas; the owning area exports one small named function for it " +
        '(e.g. lib/ideas/stream.ts for the webhook pipeline).',
      severity: 'error',
      from: { path: `^lib/(${AREAS})/` },
      to: {
        // A store may be one file or a folder of one file per entity (lib/<area>/store/).
        path: `^lib/(${AREAS})/(store/|(store|record|schemas|routes)\\.ts$)`,
        pathNot: '^lib/$1/',
      },
    },
    {
      name: 'lib-never-imports-entry-points',
      comment: 'Lambda entries, the sandbox, the CLI, CDK, scripts, bench and tests sit above lib, never below it.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(functions|local|cli|cdk|scripts|bench|test)/' },
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
