/** Knowledge-bank search and link checking in the stack: bucket, builder mapping, checker, schedule, least-privilege grants. */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { linkChecker } from '../../lib/knowledge-bank/link-check/pipeline.ts';
import { searchIndexBuilder } from '../../lib/knowledge-bank/search/pipeline.ts';

let template: Template;
/** The background parts live in a nested stack (cdk/constructs/knowledge-bank-search.ts says why). */
let nested: Template;
let stack: PortalApiStack;

beforeAll(() => {
  // Bundling skipped: nothing here looks into a function's code (test/cdk/stack.test.ts synthesizes
  // the bundles once), and a hundred bundles with the SDK are minutes of CPU on a loaded CI machine.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new PortalApiStack(app, 'KbSearchStack', { workspaceDomain: 'portal.test', linkCheckSchedule: 'rate(12 hours)' });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // Synthesis fails on any cdk-nag finding that is not acknowledged with a reason.
  app.synth();
  template = Template.fromStack(stack);
  nested = Template.fromStack(stack.knowledgeBankSearch);
});

/** The template of the stack that holds `construct`: route functions live in their area's nested stack. */
const templates = new Map<Stack, Template>();
const templateOf = (construct: { node: unknown }) => {
  const owner = Stack.of(construct as never);
  if (!templates.has(owner)) templates.set(owner, Template.fromStack(owner));
  return templates.get(owner)!;
};

const ref = (construct: { node: { defaultChild?: unknown } }) =>
  Stack.of(construct as never).resolve((construct.node.defaultChild as any).ref);

function statementsOf(fn: { role?: { node: { defaultChild?: unknown } } }): any[] {
  const roleRef = JSON.stringify(ref(fn.role!));
  return Object.values(templateOf(fn.role as never).findResources('AWS::IAM::Policy'))
    .filter((p: any) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === roleRef))
    .flatMap((p: any) => p.Properties.PolicyDocument.Statement as any[]);
}
const s3Actions = (fn: Parameters<typeof statementsOf>[0]) =>
  statementsOf(fn)
    .flatMap((s) => [s.Action].flat())
    .filter((a: string) => a.startsWith('s3:'))
    .sort();

describe('knowledge-bank search in the stack', () => {
  it('keeps indexes in a private, encrypted, TLS-only bucket without versioning, with a lifecycle', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: Match.absent(),
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'search-index/', ExpirationInDays: 400, Status: 'Enabled' }),
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        ]),
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('feeds the builder from the table stream: article items only, batching window, partial failures, bisect, bounded retries, failure queue', () => {
    nested.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(stack.knowledgeBankSearch.builder),
      BatchSize: searchIndexBuilder.batchSize,
      MaximumBatchingWindowInSeconds: searchIndexBuilder.maxBatchingWindowSeconds,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: searchIndexBuilder.maximumRetryAttempts,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ParallelizationFactor: 1,
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ dynamodb: { NewImage: { entity: { S: ['KbArticle'] } } } }) },
          { Pattern: JSON.stringify({ dynamodb: { OldImage: { entity: { S: ['KbArticle'] } } } }) },
        ],
      },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  it('grants each function only the S3 actions it uses', () => {
    expect(s3Actions(stack.knowledgeBankSearch.builder)).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    expect(s3Actions(stack.functions.get('searchKnowledgeBank')!)).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(s3Actions(stack.knowledgeBankSearch.scheduler)).toEqual(['s3:ListBucket']);
    expect(s3Actions(stack.knowledgeBankSearch.checker)).toEqual([]);
    expect(s3Actions(stack.functions.get('listKnowledgeBankExternalLinks')!)).toEqual([]);
    // The builder reads the table; its one write is the segment manifest, limited to that item's attributes.
    const builderStatements = statementsOf(stack.knowledgeBankSearch.builder);
    const builderDynamo = builderStatements.flatMap((s) => [s.Action].flat());
    expect(builderDynamo).not.toContain('dynamodb:BatchWriteItem');
    expect(builderDynamo).not.toContain('dynamodb:UpdateItem');
    const puts = builderStatements.filter((s) => [s.Action].flat().includes('dynamodb:PutItem'));
    expect(puts).toHaveLength(1);
    expect(puts[0]!.Action).toBe('dynamodb:PutItem');
    expect(puts[0]!.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'entity', 'format', 'version', 'base', 'deltas', 'updatedAt'] },
    });
  });

  it('runs the link checker from its queue, filled by the on-demand route and a schedule from CDK context', () => {
    nested.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(stack.knowledgeBankSearch.checker),
      BatchSize: linkChecker.batchSize,
      ScalingConfig: { MaximumConcurrency: linkChecker.maxConcurrency },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    nested.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(12 hours)' });
    const sends = (fn: Parameters<typeof statementsOf>[0]) => statementsOf(fn).some((s) => [s.Action].flat().includes('sqs:SendMessage'));
    expect(sends(stack.functions.get('checkKnowledgeBankLinks')!)).toBe(true);
    expect(sends(stack.knowledgeBankSearch.scheduler)).toBe(true);
    expect(sends(stack.functions.get('searchKnowledgeBank')!)).toBe(false);
  });
});
