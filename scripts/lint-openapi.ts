/**
 * `npm run openapi:lint` (part of `npm run check`): writes the document with scripts/write-openapi.ts
 * to a temporary path and lints it with Redocly CLI (redocly.yaml) and Spectral's `spectral:oas`
 * ruleset (.spectral.yaml), as the scripts openapi:redocly and openapi:spectral. Any error, or any warning, fails: both configs explain what they turn off.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
// Neither linter needs the network: no usage reports, no update checks.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    console.error(`\n${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

run('tsx', ['scripts/write-openapi.ts', file]);
// The linters' own command lines are the package.json scripts openapi:redocly and openapi:spectral.
run('npm', ['run', '--silent', 'openapi:redocly', '--', file]);
run('npm', ['run', '--silent', 'openapi:spectral', '--', file]);
rmSync(dir, { recursive: true, force: true });
