/**
 * `cxctl backup verify`: what a restore and a redeploy will rely on, checked where it lives.
 *   - the table: point-in-time recovery on (and the window it can restore from), deletion
 *     protection, the stream (the search index, summaries and webhooks follow it), TTL;
 *   - what the stack does with each piece when it is deleted (its template's DeletionPolicy): the
 *     table and the signing secret retained, the buckets emptied and deleted (cdk/portal-api-stack.ts,
 *     cdk/constructs/private-bucket.ts say why);
 *   - the signing secret itself: there, and not scheduled for deletion.
 * Facts are gathered by the functions below (AWS calls, or the sandbox's equivalents) and judged
 * by `backupChecks`, a pure function, so the judgement is the same wherever the facts come from.
 */
import { CloudFormationClient, GetTemplateCommand } from '@aws-sdk/client-cloudformation';
import {
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { DescribeSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { TABLE } from '../platform/data/table.ts';

export interface TableFacts {
  name: string;
  deletionProtection: boolean;
  stream: { viewType: string; arn: string } | null;
  ttlAttribute: string | null;
  /** `unsupported`: DynamoDB Local, which has no continuous backups. */
  pitr: { enabled: boolean; earliest?: string; latest?: string } | 'unsupported';
}

type Retention = 'retained' | 'deleted' | 'emptied and deleted' | 'not managed by the stack';

export interface RetentionFacts {
  table: Retention;
  secret: Retention;
  buckets: { name: string; retention: Retention }[];
}

export interface SecretFacts {
  /** Its ARN, or where the sandbox keeps it. */
  where: string;
  exists: boolean;
  deletionScheduledFor?: string;
}

export interface BackupFacts {
  table: TableFacts;
  /** Null when no stack is known (`--table` without `--stack`). */
  retention: RetentionFacts | null;
  secret: SecretFacts | null;
}

export interface Check {
  /** null: does not apply here (said in `detail`). */
  ok: boolean | null;
  what: string;
  detail: string;
}

export async function tableFacts(client: DynamoDBClient, tableName: string): Promise<TableFacts> {
  const [{ Table }, { TimeToLiveDescription }] = await Promise.all([
    client.send(new DescribeTableCommand({ TableName: tableName })),
    client.send(new DescribeTimeToLiveCommand({ TableName: tableName })),
  ]);
  let pitr: TableFacts['pitr'];
  try {
    const { ContinuousBackupsDescription: backups } = await client.send(new DescribeContinuousBackupsCommand({ TableName: tableName }));
    const description = backups?.PointInTimeRecoveryDescription;
    pitr = {
      enabled: description?.PointInTimeRecoveryStatus === 'ENABLED',
      earliest: description?.EarliestRestorableDateTime?.toISOString(),
      latest: description?.LatestRestorableDateTime?.toISOString(),
    };
  } catch (error) {
    if ((error as { name?: string }).name !== 'UnknownOperationException') throw error;
    pitr = 'unsupported';
  }
  const spec = Table?.StreamSpecification;
  return {
    name: tableName,
    deletionProtection: Table?.DeletionProtectionEnabled === true,
    stream: spec?.StreamEnabled && Table?.LatestStreamArn ? { viewType: spec.StreamViewType ?? '', arn: Table.LatestStreamArn } : null,
    ttlAttribute: TimeToLiveDescription?.TimeToLiveStatus === 'ENABLED' ? (TimeToLiveDescription.AttributeName ?? null) : null,
    pitr,
  };
}

type TemplateResource = { Type: string; DeletionPolicy?: string; Properties?: Record<string, unknown> };

/** What the stack's template does with the table, the secret and each bucket when the stack is deleted. */
export function retentionOf(template: { Resources: Record<string, TemplateResource> }): RetentionFacts {
  const resources = Object.entries(template.Resources);
  const policy = (resource: TemplateResource | undefined): Retention =>
    !resource ? 'not managed by the stack' : resource.DeletionPolicy === 'Retain' ? 'retained' : 'deleted';
  const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);
  const emptied = new Set(
    ofType('Custom::EmptyBucketOnDelete').map(([, r]) => (r.Properties?.BucketName as { Ref?: string } | undefined)?.Ref),
  );
  return {
    table: policy(ofType('AWS::DynamoDB::Table')[0]?.[1]),
    secret: policy(ofType('AWS::SecretsManager::Secret')[0]?.[1]),
    buckets: ofType('AWS::S3::Bucket').map(([id, r]) => ({
      name: id.replace(/[0-9A-F]{8}$/, ''),
      retention: policy(r) === 'deleted' && emptied.has(id) ? 'emptied and deleted' : policy(r),
    })),
  };
}

export async function deployedTemplate(stackName: string, settings: { region: string; profile?: string }) {
  const client = new CloudFormationClient(settings);
  try {
    const { TemplateBody } = await client.send(new GetTemplateCommand({ StackName: stackName, TemplateStage: 'Processed' }));
    return JSON.parse(TemplateBody ?? '{"Resources":{}}') as { Resources: Record<string, TemplateResource> };
  } finally {
    client.destroy();
  }
}

export async function deployedSecretFacts(secretArn: string, settings: { region: string; profile?: string }): Promise<SecretFacts> {
  const client = new SecretsManagerClient(settings);
  try {
    const secret = await client.send(new DescribeSecretCommand({ SecretId: secretArn }));
    return { where: secretArn, exists: true, deletionScheduledFor: secret.DeletedDate?.toISOString() };
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return { where: secretArn, exists: false };
    throw error;
  } finally {
    client.destroy();
  }
}

const RETENTION_WANTED: Record<'table' | 'secret', Retention[]> = {
  table: ['retained', 'not managed by the stack'],
  secret: ['retained', 'not managed by the stack'],
};

/** The verdicts, in the order an operator reads them. */
export function backupChecks(facts: BackupFacts): Check[] {
  const { table } = facts;
  const checks: Check[] = [];
  if (table.pitr === 'unsupported') {
    checks.push({
      ok: null,
      what: 'point-in-time recovery',
      detail: 'DynamoDB Local has none; the sandbox restores by copying a table (cxctl backup restore --to NAME)',
    });
  } else {
    checks.push({
      ok: table.pitr.enabled,
      what: 'point-in-time recovery',
      detail: table.pitr.enabled
        ? `on: restorable from ${table.pitr.earliest ?? '?'} to ${table.pitr.latest ?? '?'}`
        : 'off: aws dynamodb update-continuous-backups --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true',
    });
  }
  checks.push({ ok: table.deletionProtection, what: 'deletion protection', detail: table.deletionProtection ? 'on' : 'off' });
  checks.push({
    ok: table.stream?.viewType === 'NEW_AND_OLD_IMAGES',
    what: 'stream',
    detail: table.stream ? `${table.stream.viewType} (${table.stream.arn})` : 'off: the search index, summaries and webhooks follow it',
  });
  checks.push({
    ok: table.ttlAttribute === TABLE.ttlAttribute,
    what: 'time to live',
    detail: table.ttlAttribute ? `on attribute ${table.ttlAttribute}` : `off: expired items (tombstones, deliveries) would stay`,
  });
  if (!facts.retention) {
    checks.push({ ok: null, what: 'when the stack is deleted', detail: 'name the stack (--stack NAME) to check its template' });
  } else {
    const { retention } = facts;
    checks.push({ ok: RETENTION_WANTED.table.includes(retention.table), what: 'table when the stack is deleted', detail: retention.table });
    checks.push({
      ok: RETENTION_WANTED.secret.includes(retention.secret),
      what: 'signing secret when the stack is deleted',
      detail: `${retention.secret}${retention.secret === 'deleted' ? ': erasure would find no respondent after a redeploy' : ''}`,
    });
    for (const bucket of retention.buckets) {
      checks.push({
        ok: bucket.retention === 'emptied and deleted' || bucket.retention === 'retained',
        what: `bucket ${bucket.name} when the stack is deleted`,
        detail: bucket.retention === 'deleted' ? 'deleted only if empty: cdk destroy would fail on it' : bucket.retention,
      });
    }
  }
  if (facts.secret) {
    const { secret } = facts;
    checks.push({
      ok: secret.exists && !secret.deletionScheduledFor,
      what: 'signing secret',
      detail: !secret.exists
        ? `missing (${secret.where})`
        : secret.deletionScheduledFor
          ? `scheduled for deletion on ${secret.deletionScheduledFor}: aws secretsmanager restore-secret --secret-id ${secret.where}`
          : `present (${secret.where})`,
    });
  }
  return checks;
}
