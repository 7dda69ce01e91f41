/**
 * How every function is bundled: read by the CDK construct (cdk/constructs/api-function.ts) and by
 * the cold-start bench (bench/cold-start.ts), which bundles each function with exactly these
 * settings to measure what Lambda's init of it costs.
 */
export const HOUSE_BUNDLING = {
  format: 'esm',
  target: 'node24',
  minify: true,
  sourceMap: true,
  mainFields: ['module', 'main'],
  // middy and Powertools are ESM; a few dependencies still call require().
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  bundleAwsSDK: false,
} as const;

/** Every function's NODE_OPTIONS: stack traces in the logs name the source, not the minified bundle. */
export const HOUSE_NODE_OPTIONS = '--enable-source-maps';
