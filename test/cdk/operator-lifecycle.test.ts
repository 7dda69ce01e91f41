/**
 * What the stack keeps and what it removes when it is deleted, and a deploy onto a table that
 * outlived its stack (docs/operating.md): the table and the signing secret are retained; the buckets
 * are emptied by a least-privilege function and deleted; `-c tableName/tableStreamArn/signingSecretArn`
 * (here as props) makes a stack that creates neither, and points every function, grant and event
 * source at the ones given.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { backupChecks, retentionOf } from '../../lib/admin/backup.ts';

type Resource = { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string; Properties: Record<string, any> };

const TABLE = 'cx-restored';
const STREAM = `arn:aws:dynamodb:eu-west-1:123456789012:table/${TABLE}/stream/2026-11-26T00:00:00.000`;
const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CxPortalApiCursorSigningKey-AbCd12';

function synth(props: Partial<ConstructorParameters<typeof PortalApiStack>[2]> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new PortalApiStack(app, 'Lifecycle', { workspaceDomain: 'portal.test', ...props });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
  const nested = stack.node.findAll().filter((c): c is Stack => Stack.isStack(c) && c !== stack);
  const templates = [stack, ...nested].map((s) => Template.fromStack(s));
  const resources = (type: string) => templates.flatMap((t) => Object.entries(t.findResources(type)) as [string, Resource][]);
  return { stack, template: Template.fromStack(stack), resources };
}

let fresh: ReturnType<typeof synth>;
let adopted: ReturnType<typeof synth>;

beforeAll(() => {
  fresh = synth();
  adopted = synth({ existingTable: { tableName: TABLE, tableStreamArn: STREAM }, signingSecretArn: SECRET });
});

describe('deleting the stack', () => {
  it('keeps the table and the signing secret, whose respondent hashes the table holds', () => {
    const [[, table]] = fresh.resources('AWS::DynamoDB::Table') as [[string, Resource]];
    expect(table).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(table.Properties).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const secrets = fresh.resources('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(1);
    expect(secrets[0]![1]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    // No Name: a name added to a deployed secret would replace it, and with it every respondent hash's key.
    expect(secrets[0]![1].Properties.Name).toBeUndefined();
  });

  it('empties each bucket just before deleting it, so the delete never stalls on a bucket that holds objects', () => {
    const buckets = fresh.resources('AWS::S3::Bucket');
    expect(buckets.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['KnowledgeBankSearchIndexBucket', 'SurveyExportBucket']);
    const emptiers = fresh.resources('Custom::EmptyBucketOnDelete');
    for (const [id, bucket] of buckets) {
      expect(bucket.DeletionPolicy).toBe('Delete');
      expect(
        emptiers.filter(([, e]) => e.Properties.BucketName?.Ref === id),
        id,
      ).toHaveLength(1);
    }
    // The parent's template, as cxctl backup verify reads it, passes every check it can judge.
    const retention = retentionOf(fresh.template.toJSON() as Parameters<typeof retentionOf>[0]);
    expect(retention.buckets.every((b) => b.retention === 'emptied and deleted')).toBe(true);
    const table = {
      name: 't',
      deletionProtection: true,
      stream: { viewType: 'NEW_AND_OLD_IMAGES', arn: 'a' },
      ttlAttribute: 'ttl',
      pitr: 'unsupported' as const,
    };
    expect(backupChecks({ table, retention, secret: null }).filter((check) => check.ok === false)).toEqual([]);
  });

  it('lets the emptier write its own log group, list the two buckets and delete their objects, and nothing more', () => {
    const emptier = fresh.stack.node.findChild('BucketEmptier') as unknown as { role: { node: { defaultChild: { ref: string } } } };
    const roleRef = JSON.stringify(fresh.stack.resolve(emptier.role.node.defaultChild.ref));
    const statements = fresh
      .resources('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === roleRef))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const actions = statements.flatMap((s) => [s.Action].flat()).sort();
    expect([...new Set(actions)]).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', 's3:DeleteObject', 's3:ListBucket']);
    const buckets = fresh.resources('AWS::S3::Bucket').map(([id]) => id);
    const resources = JSON.stringify(statements.filter((s) => String(s.Action).startsWith('s3:')).map((s) => s.Resource));
    for (const id of buckets) expect(resources).toContain(id);
    expect(resources).not.toContain('"*"');
  });

  it('names the table, stream, secret and buckets in its outputs, for cxctl --stack and a redeploy', () => {
    expect(Object.keys(fresh.template.toJSON().Outputs)).toEqual(
      expect.arrayContaining(['TableName', 'TableStreamArn', 'SigningSecretArn', 'SearchIndexBucketName', 'SurveyExportBucketName']),
    );
  });
});

describe('deploying onto a table that outlived its stack', () => {
  it('creates no table and no secret', () => {
    expect(adopted.resources('AWS::DynamoDB::Table')).toEqual([]);
    expect(adopted.resources('AWS::SecretsManager::Secret')).toEqual([]);
  });

  it("points every function at the given table, and every stream consumer at the table's stream", () => {
    const withTable = (synthed: typeof fresh) =>
      synthed.resources('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.TABLE_NAME);
    const functions = withTable(adopted);
    expect(functions.length).toBe(withTable(fresh).length);
    // A name, not a token: the same literal in the parent and in every nested stack.
    expect(new Set(functions.map(([, fn]) => fn.Properties.Environment.Variables.TABLE_NAME))).toEqual(new Set([TABLE]));
    const streamSources = adopted
      .resources('AWS::Lambda::EventSourceMapping')
      .filter(
        ([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes('stream') || typeof m.Properties.StartingPosition === 'string',
      );
    expect(streamSources.length).toBeGreaterThanOrEqual(2);
    const parameters = JSON.stringify(adopted.template.toJSON().Resources);
    expect(parameters).toContain(STREAM);
    expect(JSON.stringify(adopted.template.toJSON().Outputs.TableName.Value)).toBe(JSON.stringify(TABLE));
  });

  it('lets the cursor lists and erasure read the secret given, by its full ARN', () => {
    const grants = adopted
      .resources('AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue'));
    expect(grants.length).toBeGreaterThan(5);
    expect(JSON.stringify(adopted.template.toJSON())).toContain(SECRET);
    expect(JSON.stringify(adopted.template.toJSON().Outputs.SigningSecretArn.Value)).toBe(JSON.stringify(SECRET));
  });
});
