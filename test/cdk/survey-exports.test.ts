/** Survey exports in the stack: a bucket whose files expire in a day, the writer on its queue, least-privilege grants. */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { HouseFunction } from '../../cdk/constructs/api-function.ts';
import { SurveyExports } from '../../cdk/constructs/survey-exports.ts';
import { createSurveyExport, getSurveyExport } from '../../lib/surveys/exports/routes.ts';

let template: Template;
let nested: Template;
let exportsStack: SurveyExports;
let create: HouseFunction;
let read: HouseFunction;

/**
 * The construct in a small stack of its own (a table and the two route functions), not the whole API:
 * synthesising every function of the API takes minutes, and these properties are the construct's.
 * That the table stream keeps two readers is the sandbox's rule (test/integration/event-source-mappings.test.ts).
 */
beforeAll(() => {
  const app = new App();
  const stack = new Stack(app, 'SurveyExportsStack');
  const table = new Table(stack, 'Table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    sortKey: { name: 'sk', type: AttributeType.STRING },
    stream: StreamViewType.NEW_AND_OLD_IMAGES,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  });
  create = new HouseFunction(stack, 'CreateExport', { entry: createSurveyExport.handler });
  read = new HouseFunction(stack, 'ReadExport', { entry: getSurveyExport.handler });
  const routeFunctions = new Map([
    [createSurveyExport.operationId, create],
    [getSurveyExport.operationId, read],
  ]);
  exportsStack = new SurveyExports(stack, 'SurveyExports', { table, environment: { TABLE_NAME: table.tableName }, routeFunctions });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
  template = Template.fromStack(stack);
  nested = Template.fromStack(exportsStack);
});

const ref = (construct: { node: { defaultChild?: unknown } }) =>
  Stack.of(construct as never).resolve((construct.node.defaultChild as any).ref);

/** Every IAM statement attached to the role of `fn`, wherever its policy lives. */
function statementsOf(fn: { role?: { node: { defaultChild?: unknown } } }): any[] {
  const owner = Template.fromStack(Stack.of(fn.role as never));
  const roleRef = JSON.stringify(ref(fn.role!));
  return Object.values(owner.findResources('AWS::IAM::Policy'))
    .filter((p: any) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === roleRef))
    .flatMap((p: any) => p.Properties.PolicyDocument.Statement as any[]);
}
const actionsOf = (fn: Parameters<typeof statementsOf>[0], prefix: string) =>
  statementsOf(fn)
    .flatMap((s) => [s.Action].flat())
    .filter((a: string) => a.startsWith(prefix))
    .sort();

describe('survey exports in the stack', () => {
  it('keeps files in a private, encrypted bucket that deletes them a day later', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'survey-exports/', ExpirationInDays: 1, Status: 'Enabled' }),
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        ]),
      },
    });
  });

  it('runs the writer on the export queue, one job at a time, reporting partial failures, with a dead-letter queue', () => {
    nested.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(exportsStack.writer),
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    nested.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: Match.objectLike({ maxReceiveCount: 3 }) });
  });

  it('grants the writer object writes only, the read route object reads only, the create route the queue only', () => {
    expect(actionsOf(exportsStack.writer, 's3:')).toEqual(['s3:AbortMultipartUpload', 's3:PutObject']);
    expect(actionsOf(read, 's3:')).toEqual(['s3:GetObject']);
    expect(actionsOf(create, 's3:')).toEqual([]);
    expect(actionsOf(create, 'sqs:')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
  });
});
