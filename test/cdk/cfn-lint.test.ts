/**
 * Every synthesized template (the parent's and each nested stack's) passes AWS's CloudFormation
 * linter, cfn-lint (the Python tool, `pip install cfn-lint`; not the npm package of that name),
 * with no error and no warning beyond those accepted, each with its reason, in .cfnlintrc.yaml.
 * The templates are the ones the sandbox evaluates policies from (local/iam/cloud-assembly.ts).
 */
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cloudAssembly } from '../../local/iam/cloud-assembly.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const installed = spawnSync('cfn-lint', ['--version']).status === 0;
if (!installed) console.log('cfn-lint is not on PATH: the template lint is skipped (install it with `pip install cfn-lint`)');

interface Finding {
  Filename: string;
  Level: string;
  Message: string;
  Rule: { Id: string };
  Location: { Start: { LineNumber: number } };
}

describe.skipIf(!installed)('cfn-lint', () => {
  it('finds nothing in any synthesized template, parent or nested', async () => {
    const { directory, templates } = await cloudAssembly();
    const files = readdirSync(directory).filter((f) => f.endsWith('.template.json'));
    expect(files.length).toBe(templates.size);
    expect(files.filter((f) => f.endsWith('.nested.template.json')).length).toBeGreaterThan(0);
    // cfn-lint exits non-zero when it finds anything: read its report either way.
    const stdout = await promisify(execFile)('cfn-lint', ['--config-file', join(ROOT, '.cfnlintrc.yaml'), '--format', 'json', ...files], {
      cwd: directory,
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const findings = JSON.parse(stdout || '[]') as Finding[];
    expect(findings.map((f) => `${f.Level} ${f.Rule.Id} ${f.Filename}:${f.Location.Start.LineNumber} ${f.Message}`)).toEqual([]);
  });
});
