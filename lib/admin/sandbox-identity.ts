/**
 * Which sandbox a cxctl command reaches, so that it never writes one sandbox's table and another's
 * objects. `npm start` writes what it runs (its endpoints, the table it serves, its DATA_DIR) into
 * DATA_DIR/sandbox.json, removed when it stops, and into its own object store, where cxctl reads it
 * back before it writes objects: the table it would use must be the one that store's sandbox serves.
 * And every command a sandbox or cxctl prints names each variable its reader needs to reach this very
 * sandbox (`sandboxVariables`).
 */
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface SandboxIdentity {
  /** The sandbox's process: a file whose process is gone is stale. */
  pid: number;
  /** Absolute; null for a sandbox in memory (the tests'). */
  dataDir: string | null;
  apiUrl: string;
  dynamodbEndpoint: string;
  /** fauxqs: the queues and the object store (S3) on one port, SQS_PORT. */
  sqsEndpoint: string;
  tableName: string;
}

/** Where in its object store a sandbox says whose it is. */
export const IDENTITY_OBJECT = { bucket: 'cx-portal-sandbox', key: 'sandbox.json' } as const;

const FILE = 'sandbox.json';

/** Writes DATA_DIR/sandbox.json; the function returned removes it (only if it is still this sandbox's). */
export function writeSandboxFile(identity: SandboxIdentity & { dataDir: string }): () => void {
  const file = join(identity.dataDir, FILE);
  writeFileSync(file, `${JSON.stringify(identity, null, 2)}\n`);
  const release = () => {
    process.off('exit', release);
    if (readSandboxFile(identity.dataDir)?.pid === identity.pid) unlinkSync(file);
  };
  process.once('exit', release);
  return release;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The sandbox running on `dataDir`, or null (none, or one that died without removing its file). */
export function readSandboxFile(dataDir: string): SandboxIdentity | null {
  const file = join(dataDir, FILE);
  if (!existsSync(file)) return null;
  try {
    const identity = JSON.parse(readFileSync(file, 'utf8')) as SandboxIdentity;
    return alive(identity.pid) ? identity : null;
  } catch {
    return null;
  }
}

/** `npm start`'s defaults: a variable at its default need not be named. */
export const SANDBOX_DEFAULTS = { PORT: 3000, DYNAMODB_PORT: 8000, SQS_PORT: 4566, DATA_DIR: '.data', TABLE_NAME: 'cx-portal' } as const;

/** What a printed command reaches: the API (PORT), the table (DYNAMODB_PORT, TABLE_NAME), the object store and queues (SQS_PORT). */
export type SandboxNeed = 'api' | 'table' | 'objects';

const portOf = (url: string | undefined) => (url ? Number(new URL(url).port) : undefined);

/**
 * The variables to put before a command so that it reaches the sandbox `identity` describes (on
 * `tableName` when given): each it needs whose value is not npm start's default, and DATA_DIR when
 * not the default (cxctl finds a sandbox's endpoints in DATA_DIR/sandbox.json, and `npm start` its
 * data there). E.g. `PORT=3102 DYNAMODB_PORT=8102 DATA_DIR=/tmp/a TABLE_NAME=cx-portal-restored `.
 */
export function sandboxVariables(
  identity: Pick<SandboxIdentity, 'dataDir' | 'tableName'> & Partial<Pick<SandboxIdentity, 'apiUrl' | 'dynamodbEndpoint' | 'sqsEndpoint'>>,
  needs: readonly SandboxNeed[],
  tableName = identity.tableName,
): string {
  const values: [string, string | number | undefined, string | number][] = [
    ['PORT', needs.includes('api') ? portOf(identity.apiUrl) : undefined, SANDBOX_DEFAULTS.PORT],
    ['DYNAMODB_PORT', needs.includes('table') ? portOf(identity.dynamodbEndpoint) : undefined, SANDBOX_DEFAULTS.DYNAMODB_PORT],
    ['SQS_PORT', needs.includes('objects') ? portOf(identity.sqsEndpoint) : undefined, SANDBOX_DEFAULTS.SQS_PORT],
    ['DATA_DIR', identity.dataDir ?? undefined, resolve(SANDBOX_DEFAULTS.DATA_DIR)],
    ['TABLE_NAME', needs.includes('table') ? tableName : undefined, SANDBOX_DEFAULTS.TABLE_NAME],
  ];
  return values
    .filter(([name, value, fallback]) => value !== undefined && (name === 'DATA_DIR' ? resolve(String(value)) : value) !== fallback)
    .map(([name, value]) => `${name}=${value} `)
    .join('');
}
