/**
 * cxctl on AWS (`--table`, `--stack`) with no credentials to be found: it used to print the SDK's
 * bare "CredentialsProviderError: Could not load credentials from any providers". Now one line says
 * what to give it: a profile (`--profile`, AWS_PROFILE) or keys, and where its policy is.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
// A home with no ~/.aws, and no instance metadata to wait for: nowhere for the SDK to find credentials.
const home = mkdtempSync(join(tmpdir(), 'cxctl-no-credentials-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function cxctl(...args: string[]): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)(process.execPath, ['bin/cxctl.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: home, AWS_EC2_METADATA_DISABLED: 'true' },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe('cxctl without AWS credentials', { timeout: 60_000 }, () => {
  it('says to name a profile (--profile, AWS_PROFILE) or set keys, in one line', async () => {
    const { code, stderr } = await cxctl('workspace', 'list', '--table', 'CxPortalApi-Table', '--region', 'eu-west-1');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('cxctl: No AWS credentials (the SDK says: Could not load credentials from any providers). ');
    expect(stderr).toContain('Name a profile with --profile NAME or AWS_PROFILE=NAME');
    expect(stderr).toContain('or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  });

  it('names the profile it was given that gave none', async () => {
    const { code, stderr } = await cxctl('workspace', 'list', '--table', 'CxPortalApi-Table', '--region', 'eu-west-1', '--profile', 'ops');
    expect(code).toBe(1);
    expect(stderr).toContain('Profile "ops" gave none: is it one `aws configure list-profiles` lists?');
  });
});
