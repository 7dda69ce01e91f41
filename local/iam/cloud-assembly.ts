/**
 * The CDK app synthesized as `cdk synth` does (the very `cdk/app.ts`, run with the CLI's
 * environment) but with bundling skipped (`aws:cdk:bundling-stacks: []`), into a cache keyed by
 * every input that shapes a template (the app's module graph and its settings): the sandbox and the
 * policy and cfn-lint tests read the templates CDK would deploy without paying for a synth on every
 * start. A synth takes about 10 s of CPU; a cache hit (esbuild's module graph, then reading the
 * templates) a few tens of milliseconds.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = join(ROOT, 'node_modules/.cache/cx-portal-synth');
const APP = 'cdk/app.ts';
/** Read by the CDK app besides its imports: its context and the pinned CDK and dependencies. */
const SETTINGS = ['cdk.json', 'package-lock.json'];

export interface Template {
  Parameters?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> }>;
}

export interface CloudAssembly {
  directory: string;
  /** Every template file (the parent's and each nested stack's), by file name. */
  templates: Map<string, Template>;
  /** The parent stack's template file name. */
  root: string;
}

/**
 * A digest of every source file the CDK app imports (esbuild's module graph of `cdk/app.ts`: the
 * constructs, the manifest, route definitions and the table layout, but no handler or store, which
 * CDK names by path only) and of its settings: a change to any of them makes a new synth, a change
 * to a handler's code does not.
 */
async function inputDigest(): Promise<string> {
  const { metafile } = await build({
    entryPoints: [join(ROOT, APP)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const files = [...Object.keys(metafile.inputs), ...SETTINGS].sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(await readFile(join(ROOT, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

function cdkContext(): Record<string, unknown> {
  const { context } = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return {
    ...context,
    // Skip bundling of every stack: the templates (and so every IAM statement) are what a real
    // synth writes; only the functions' code assets are placeholders.
    'aws:cdk:bundling-stacks': [],
    // Nested stack resources name their template file, and resources their construct path, as the CLI asks by default.
    'aws:cdk:enable-asset-metadata': true,
    'aws:cdk:enable-path-metadata': true,
  };
}

async function synthesize(outdir: string): Promise<void> {
  // How the CDK CLI runs an app: CDK_OUTDIR and CDK_CONTEXT_JSON, then the App synthesizes on exit.
  await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, APP)], {
    cwd: ROOT,
    env: {
      ...process.env,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify(cdkContext()),
      CDK_DEFAULT_ACCOUNT: '000000000000',
      CDK_DEFAULT_REGION: process.env.AWS_REGION ?? 'us-east-1',
    },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** How long an unused digest (or another synth's staging directory) stays: a synth or a read of it may still be running. */
const STALE_AFTER_MS = 60 * 60 * 1000;

/**
 * Older digests are dead weight, but only once nothing can be using them: another checkout sharing
 * node_modules (a worktree), or a test run beside `npm start` on edited sources, may be synthesizing
 * or reading its own digest right now.
 */
async function removeStaleDigests(current: string): Promise<void> {
  for (const entry of await readdir(CACHE)) {
    if (entry === current || entry.startsWith(`${current}.`)) continue;
    const path = join(CACHE, entry);
    const modified = await stat(path).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - modified > STALE_AFTER_MS) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The synthesized assembly of the current sources, synthesized now only if the cache has none. */
export async function cloudAssembly(): Promise<CloudAssembly> {
  const digest = await inputDigest();
  const directory = join(CACHE, digest);
  if (!existsSync(join(directory, 'manifest.json'))) {
    await mkdir(CACHE, { recursive: true });
    // Synthesize beside, then rename: concurrent starts (a test run beside `npm start`) never read half a directory.
    const staging = join(CACHE, `${digest}.${process.pid}.${Date.now()}`);
    try {
      await synthesize(staging);
      await rename(staging, directory).catch(async (error: NodeJS.ErrnoException) => {
        if (!existsSync(join(directory, 'manifest.json'))) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    await removeStaleDigests(digest);
  } else {
    // A use keeps a digest fresh, so another checkout's cleanup (node_modules shared by worktrees) leaves it be.
    await utimes(directory, new Date(), new Date()).catch(() => undefined);
  }
  const templates = new Map<string, Template>();
  for (const file of await readdir(directory)) {
    if (file.endsWith('.template.json')) templates.set(file, JSON.parse(await readFile(join(directory, file), 'utf8')) as Template);
  }
  const root = [...templates.keys()].find((file) => !file.endsWith('.nested.template.json'));
  if (!root) throw new Error(`No stack template in ${directory}`);
  return { directory, templates, root };
}
