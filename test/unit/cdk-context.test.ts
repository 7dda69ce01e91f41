/**
 * The CDK app's `-c` settings (cdk/context.ts): read in one place, so docs/deploying.md's table
 * (generated from that list) names every one; each checked once with a message that says what to do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { CONTEXT_SETTINGS, deploymentSettings } from '../../cdk/context.ts';

const CDK = resolve(import.meta.dirname, '../../cdk');
const STREAM = 'arn:aws:dynamodb:eu-west-1:123456789012:table/cx-restored/stream/2026-11-26T00:00:00.000';
const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CxPortalApiCursorSigningKey-AbCd12';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const settings = (context: Record<string, unknown>) => deploymentSettings(new App({ context }).node);

describe('the CDK context settings', () => {
  it('are read only through cdk/context.ts, each of them listed there', () => {
    const readers = files(CDK).filter((file) => file.endsWith('.ts') && /tryGetContext|getContext\(/.test(readFileSync(file, 'utf8')));
    expect(readers.map((file) => file.slice(CDK.length + 1))).toEqual(['context.ts']);
    const source = readFileSync(join(CDK, 'context.ts'), 'utf8');
    const asked = [...source.matchAll(/(?:raw|flag)\('(\w+)'\)/g)].map((m) => m[1]);
    expect(new Set(asked)).toEqual(new Set(CONTEXT_SETTINGS.map((s) => s.name)));
  });

  it('default to a stack that creates its own table and secret', () => {
    expect(settings({})).toMatchObject({ stackName: 'CxPortalApi', workspaceDomain: 'portal.example.com' });
    expect(settings({}).existingTable).toBeUndefined();
    expect(settings({}).signingSecretArn).toBeUndefined();
  });

  it('take a retained table only with its stream and the secret made with it', () => {
    expect(() => settings({ tableName: 'cx-restored' })).toThrow(/needs -c tableStreamArn/);
    expect(() => settings({ tableName: 'cx-restored', tableStreamArn: STREAM })).toThrow(/needs -c signingSecretArn/);
    expect(() => settings({ tableName: 'other', tableStreamArn: STREAM, signingSecretArn: SECRET })).toThrow(
      /not the stream of table other/,
    );
    expect(() => settings({ tableName: 'cx-restored', tableStreamArn: STREAM, signingSecretArn: 'CxPortalApi/key' })).toThrow(
      /not a complete Secrets Manager ARN/,
    );
    expect(settings({ tableName: 'cx-restored', tableStreamArn: STREAM, signingSecretArn: SECRET })).toMatchObject({
      existingTable: { tableName: 'cx-restored', tableStreamArn: STREAM },
      signingSecretArn: SECRET,
    });
  });

  it('make a custom domain the workspace domain, and insist on its hosted zone', () => {
    expect(() => settings({ domainName: 'portal.example.org' })).toThrow(/needs -c hostedZoneId/);
    expect(settings({ domainName: 'portal.example.org', hostedZoneId: 'Z1', workspaceDomain: 'ignored.example' })).toMatchObject({
      workspaceDomain: 'portal.example.org',
      customDomain: { domainName: 'portal.example.org', hostedZoneId: 'Z1', disableDefaultEndpoint: false },
    });
  });
});
