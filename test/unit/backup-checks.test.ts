/**
 * `cxctl backup verify`'s judgement (lib/admin/backup.ts: backupChecks, retentionOf), over the facts
 * AWS or the sandbox report. The facts of a real sandbox are test/integration/operator-commands.test.ts;
 * the real synthesized template's, test/cdk/operator-lifecycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type BackupFacts, backupChecks, retentionOf } from '../../lib/admin/backup.ts';

const healthy: BackupFacts = {
  table: {
    name: 'cx',
    deletionProtection: true,
    stream: { viewType: 'NEW_AND_OLD_IMAGES', arn: 'arn:aws:dynamodb:eu-west-1:1:table/cx/stream/x' },
    ttlAttribute: 'ttl',
    pitr: { enabled: true, earliest: '2026-10-22T00:00:00.000Z', latest: '2026-11-26T00:00:00.000Z' },
  },
  retention: {
    table: 'retained',
    secret: 'retained',
    buckets: [{ name: 'KnowledgeBankSearchIndexBucket', retention: 'emptied and deleted' }],
  },
  secret: { where: 'arn:aws:secretsmanager:eu-west-1:1:secret:k-AbCdEf', exists: true },
};

const failing = (facts: BackupFacts) => backupChecks(facts).filter((check) => check.ok === false);

describe('backup verify', () => {
  it('passes a deployment that can be restored and redeployed, and says from when it can restore', () => {
    expect(failing(healthy)).toEqual([]);
    expect(backupChecks(healthy)[0]).toMatchObject({ ok: true, detail: expect.stringContaining('from 2026-10-22T00:00:00.000Z') });
  });

  it('fails on what would lose data or erasure: PITR off, a secret deleted with the stack or going away, a bucket that stalls a delete', () => {
    const what = (facts: BackupFacts) => failing(facts).map((check) => check.what);
    expect(what({ ...healthy, table: { ...healthy.table, pitr: { enabled: false } } })).toEqual(['point-in-time recovery']);
    expect(what({ ...healthy, retention: { ...healthy.retention!, secret: 'deleted' } })).toEqual([
      'signing secret when the stack is deleted',
    ]);
    expect(what({ ...healthy, secret: { ...healthy.secret!, deletionScheduledFor: '2026-12-01T00:00:00.000Z' } })).toEqual([
      'signing secret',
    ]);
    expect(what({ ...healthy, retention: { ...healthy.retention!, buckets: [{ name: 'B', retention: 'deleted' }] } })).toEqual([
      'bucket B when the stack is deleted',
    ]);
    expect(what({ ...healthy, table: { ...healthy.table, stream: null, ttlAttribute: null, deletionProtection: false } })).toEqual([
      'deletion protection',
      'stream',
      'time to live',
    ]);
  });

  it('says what does not apply instead of failing it: DynamoDB Local has no PITR, a bare table no stack', () => {
    const checks = backupChecks({ ...healthy, table: { ...healthy.table, pitr: 'unsupported' }, retention: null, secret: null });
    expect(checks.filter((check) => check.ok === null).map((check) => check.what)).toEqual([
      'point-in-time recovery',
      'when the stack is deleted',
    ]);
    expect(failing({ ...healthy, table: { ...healthy.table, pitr: 'unsupported' }, retention: null, secret: null })).toEqual([]);
  });

  it("reads a template's deletion policies and which buckets an emptier names", () => {
    const retention = retentionOf({
      Resources: {
        TableCD117FA1: { Type: 'AWS::DynamoDB::Table', DeletionPolicy: 'Retain' },
        KeyA1B2C3D4: { Type: 'AWS::SecretsManager::Secret', DeletionPolicy: 'Delete' },
        IndexBucketDE53BA40: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Delete' },
        ExportBucketEB73B5F4: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Delete' },
        IndexBucketEmptier: { Type: 'Custom::EmptyBucketOnDelete', Properties: { BucketName: { Ref: 'IndexBucketDE53BA40' } } },
      },
    });
    expect(retention).toEqual({
      table: 'retained',
      secret: 'deleted',
      buckets: [
        { name: 'IndexBucket', retention: 'emptied and deleted' },
        { name: 'ExportBucket', retention: 'deleted' },
      ],
    });
    expect(retentionOf({ Resources: {} })).toMatchObject({ table: 'not managed by the stack', secret: 'not managed by the stack' });
  });
});
