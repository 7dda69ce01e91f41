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
  /**
   * The AWS SDK in the bundle, tree-shaken and minified, rather than the copy the Lambda runtime
   * provides: the functions' init costs less CPU that way (docs/latency.md, "Cold start": `npm run
   * bench` measures both every run), and the SDK is the version package-lock.json pins and the tests
   * ran, not whichever one the runtime carries that month, as AWS's Lambda operator guide advises
   * (https://serverlessland.com/content/service/lambda/guides/aws-lambda-operator-guide/sdks-functions).
   */
  bundleAwsSDK: true,
} as const;

/** Every function's NODE_OPTIONS: stack traces in the logs name the source, not the minified bundle. */
export const HOUSE_NODE_OPTIONS = '--enable-source-maps';
