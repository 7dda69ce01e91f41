/**
 * `npx cdk synth --quiet` quiets the template, not the bundling: CDK writes "Bundling asset
 * <path>..." to stderr for every asset it bundles, whatever the options (aws-cdk-lib
 * core/lib/asset-staging.ts, `AssetStaging.bundle`), one line per function of this app, and esbuild
 * printed each bundle's sizes until the house functions set its log level (constructs/api-function.ts).
 * While the app is built (bundling happens as each function is constructed), those lines are
 * counted instead and one line says how many; everything else CDK or esbuild writes still shows.
 */
const BUNDLING_LINE = /^Bundling asset .*\.\.\.\r?\n$/;

/**
 * `announce`, when given, is said before the first bundle, and then how many are done every
 * `progressEvery` bundles: a synth bundles for minutes before it prints anything else.
 */
export function withQuietBundling<T>(build: () => T, options: { announce?: string; progressEvery?: number } = {}): T {
  const write = process.stderr.write;
  const every = options.progressEvery ?? 10;
  let bundled = 0;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (typeof chunk === 'string' && BUNDLING_LINE.test(chunk)) {
      if (options.announce && bundled === 0) write.call(process.stderr, `${options.announce}\n`);
      bundled++;
      if (options.announce && bundled % every === 0) write.call(process.stderr, `  ${bundled} bundled…\n`);
      return true;
    }
    return write.call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return build();
  } finally {
    process.stderr.write = write;
    if (bundled > 0) process.stderr.write(`Bundled ${bundled} asset${bundled === 1 ? '' : 's'} with esbuild.\n`);
  }
}
