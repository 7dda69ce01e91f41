/**
 * One sandbox per DATA_DIR. Two DynamoDB Locals on one folder overwrite each other's files and the
 * stream checkpoints, and the port check cannot see it (the second one has other ports), so the
 * folder itself is locked: a file holding the owner's process id, created with `wx` (O_CREAT |
 * O_EXCL), which the file system lets exactly one process create.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'sandbox.lock';

/** Another live process holds the folder; the message is one line naming the variable. */
class DataDirInUseError extends Error {
  constructor(dataDir: string, variable: string, owner: string) {
    super(`${variable} ${dataDir} is in use by another sandbox (${owner}): stop it, or set ${variable} to another folder.`);
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user, which still holds the folder.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(file: string): boolean {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o644 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readOwner(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the folder or throws DataDirInUseError. A lock left by a process that died without
 * releasing it (SIGKILL, power loss) is taken over, saying so through `log`. Returns the release
 * function, which is also run on process exit so that no exit path leaves the lock behind.
 */
export function lockDataDir(options: { dataDir: string; variable: string; log?: (line: string) => void }): () => void {
  const { dataDir, variable } = options;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  if (!tryCreate(file)) {
    const owner = readOwner(file);
    // No readable pid: another sandbox is between creating the file and writing into it.
    if (owner === undefined) throw new DataDirInUseError(dataDir, variable, `lock file ${file} being written`);
    if (isAlive(owner)) throw new DataDirInUseError(dataDir, variable, `pid ${owner}`);
    options.log?.(`Taking over ${file}: the sandbox that held it (pid ${owner}) is gone.`);
    unlinkSync(file);
    // Two sandboxes taking over the same stale lock: `wx` still lets only one of them win.
    if (!tryCreate(file)) throw new DataDirInUseError(dataDir, variable, `pid ${readOwner(file) ?? 'unknown'}`);
  }
  const release = () => {
    process.off('exit', release);
    // Only our own lock: never remove one that a later sandbox took over.
    if (readOwner(file) === process.pid) unlinkSync(file);
  };
  process.once('exit', release);
  return release;
}
