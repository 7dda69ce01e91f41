/** Survey exports in the stack: a bucket whose files expire in a day, the writer on its queue, least-privilege grants. */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { ideaEventFanOut } from '../../lib/webhooks/pipeline.ts';

let template: Template;
let nested: Template;
let stack: PortalApiStack;

beforeAll(() => {
  const app = new App();
  stack = new PortalApiStack(app, 'SurveyExportsStack', { workspaceDomain: 'portal.test' });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // Synthesis fails on any cdk-nag finding that is not acknowledged with a reason.
  app.synth();
  template = Template.fromStack(stack);
  nested = Template.fromStack(stack.surveyExports);
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
      FunctionName: ref(stack.surveyExports.writer),
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    nested.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: Match.objectLike({ maxReceiveCount: 3 }) });
  });

  it('grants the writer object writes only, the read route object reads only, the create route the queue only', () => {
    expect(actionsOf(stack.surveyExports.writer, 's3:')).toEqual(['s3:AbortMultipartUpload', 's3:PutObject']);
    const read = stack.functions.get('getSurveyExport');
    const create = stack.functions.get('createSurveyExport');
    expect(actionsOf(read as never, 's3:')).toEqual(['s3:GetObject']);
    expect(actionsOf(create as never, 's3:')).toEqual([]);
    expect(actionsOf(create as never, 'sqs:')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
  });

  it('keeps the table stream at two readers: the summary aggregator rides the webhook fan-out', () => {
    const streamMappings = [stack, ...stack.node.findAll().filter((c): c is Stack => c instanceof Stack && c !== stack)]
      .flatMap((s) => Object.values(Template.fromStack(s).findResources('AWS::Lambda::EventSourceMapping')))
      .filter((m: any) => JSON.stringify(m.Properties.EventSourceArn ?? '').includes('StreamArn'));
    expect(streamMappings).toHaveLength(2);
    expect(JSON.stringify(ideaEventFanOut.filters)).toContain('SurveyResponse');
  });
});
