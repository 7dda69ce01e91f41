/**
 * docs/deploying.md stays true: its table of `-c` settings and its idle cost are what
 * scripts/deploying-page.ts makes from cdk/context.ts, cdk.json and the synthesized templates, and
 * the deployer's policy (cdk/iam/deployer-policy.json) covers every role the synthesized app asks
 * the CDK CLI to assume.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CloudAssembly, cloudAssembly } from '../../local/iam/cloud-assembly.ts';
import { generatedBlocks, idleCostOf, PAGE, withGenerated } from '../../scripts/deploying-page.ts';

let assembly: CloudAssembly;
beforeAll(async () => {
  assembly = await cloudAssembly();
});

const PSEUDO: Record<string, string> = { Partition: 'aws', AccountId: '123456789012', Region: 'eu-west-1' };
/** The assembly's pseudo-parameter placeholders (AWS::AccountId, …), filled as the CLI fills them. */
const filled = (arn: string) => arn.replace(/\$\{AWS::(\w+)\}/g, (_, name: string) => PSEUDO[name] ?? name);
const matches = (pattern: string, arn: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(arn);

describe('docs/deploying.md', () => {
  it('shows the settings and idle cost the code and the templates give (npm run docs:deploying)', async () => {
    const page = readFileSync(PAGE, 'utf8');
    expect(page).toBe(withGenerated(page, await generatedBlocks()));
  });

  it('counts the billed resources a deploy creates: one dashboard, one secret, an alarm per function and more', () => {
    const cost = idleCostOf(assembly);
    expect(cost).toMatchObject({ dashboards: 1, secrets: 1 });
    expect(cost.alarms).toBeGreaterThan(cost.functions);
    expect(cost.alarmMetrics).toBeGreaterThan(cost.alarms);
  });

  it("lets the deployer assume every role the app's deployment asks for, and no other kind", () => {
    const manifest = JSON.parse(readFileSync(join(assembly.directory, 'manifest.json'), 'utf8')) as {
      artifacts: Record<string, { properties?: { assumeRoleArn?: string; lookupRole?: { arn: string } } }>;
    };
    const roles = new Set<string>();
    for (const artifact of Object.values(manifest.artifacts)) {
      if (artifact.properties?.assumeRoleArn) roles.add(artifact.properties.assumeRoleArn);
      if (artifact.properties?.lookupRole?.arn) roles.add(artifact.properties.lookupRole.arn);
    }
    for (const file of readdirSync(assembly.directory).filter((name) => name.endsWith('.assets.json'))) {
      const assets = JSON.parse(readFileSync(join(assembly.directory, file), 'utf8')) as Record<
        string,
        Record<string, { destinations: Record<string, { assumeRoleArn?: string }> }>
      >;
      for (const kind of ['files', 'dockerImages'])
        for (const asset of Object.values(assets[kind] ?? {}))
          for (const destination of Object.values(asset.destinations)) if (destination.assumeRoleArn) roles.add(destination.assumeRoleArn);
    }
    const policy = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../cdk/iam/deployer-policy.json'), 'utf8'));
    const allowed = policy.Statement.flatMap((s: { Action: string; Resource: string[] }) =>
      s.Action === 'sts:AssumeRole' ? s.Resource : [],
    );
    // The account and region are the synth's (placeholders, or the ones it was given): only the role matters.
    const named = (arn: string) => filled(arn).replace(/^arn:aws:iam::\d{12}:role\/(.*)-\d{12}-[a-z0-9-]+$/, '$1');
    expect([...roles].map(named).sort()).toEqual([
      'cdk-hnb659fds-deploy-role',
      'cdk-hnb659fds-file-publishing-role',
      'cdk-hnb659fds-lookup-role',
    ]);
    for (const arn of roles)
      expect(
        allowed.some((pattern: string) => matches(pattern, filled(arn))),
        arn,
      ).toBe(true);
  });
});
