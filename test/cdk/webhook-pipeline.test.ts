/** The webhook pipeline in the stack: queues, event source mappings, grants and alarms as lib/webhooks/pipeline.ts says. */
import { App, type NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { routes } from '../../lib/manifest.ts';
import { ideaAndResponseChanges, webhookDeliveryQueue, webhookRecoveryQueue } from '../../lib/webhooks/pipeline.ts';

let template: Template;
let stack: PortalApiStack;

beforeAll(() => {
  // Bundling skipped: nothing here looks into a function's code.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new PortalApiStack(app, 'WebhookStack', {
    workspaceDomain: 'portal.test',
    alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:on-call',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // Synthesis fails on any cdk-nag finding that is not acknowledged with a reason.
  app.synth();
  template = Template.fromStack(stack);
});

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (type: string) => Object.values(template.findResources(type)) as Resource[];
/** This pipeline's own resources (other constructs of the stack have queues and alarms too). */
const webhookResources = (type: string) =>
  Object.entries(template.findResources(type))
    .filter(([logicalId]) => logicalId.startsWith('Webhooks'))
    .map(([, resource]) => resource) as Resource[];
const ref = (construct: { node: { defaultChild?: unknown } }) => stack.resolve((construct.node.defaultChild as any).ref);
const arnOf = (construct: { node: { defaultChild?: unknown } }) => ({
  'Fn::GetAtt': [stack.resolve((construct.node.defaultChild as any).logicalId), 'Arn'],
});

/** The template of the stack that holds `construct`: the parent's, or its area's nested one. */
const nestedTemplates = new Map<Stack, Template>();
const templateOf = (construct: Construct) => {
  const holder = Stack.of(construct);
  if (holder === stack) return template;
  if (!nestedTemplates.has(holder)) nestedTemplates.set(holder, Template.fromStack(holder));
  return nestedTemplates.get(holder)!;
};

/**
 * What a value in a nested template stands for in the parent: the nested stack's parameters are
 * filled by the parent (e.g. the delivery queue's URL), so a `Ref` to one becomes what it is given.
 */
function inParent(construct: Construct, value: unknown): unknown {
  const holder = Stack.of(construct);
  if (holder === stack) return value;
  const parameter = (value as { Ref?: string }).Ref;
  const parameters = templateOf(construct).toJSON().Parameters ?? {};
  if (!parameter || !(parameter in parameters)) return value;
  const logicalId = stack.resolve((holder as NestedStack).nestedStackResource!.logicalId);
  return template.toJSON().Resources[logicalId].Properties.Parameters[parameter];
}

function statementsOf(fn: Construct & { role?: { node: { defaultChild?: unknown } } }) {
  const roleRef = Stack.of(fn).resolve((fn.role!.node.defaultChild as any).ref);
  return (Object.values(templateOf(fn).findResources('AWS::IAM::Policy')) as Resource[])
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(roleRef)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
}

describe('webhook pipeline', () => {
  it('has four encrypted, TLS-only queues; the delivery and recovery queues redrive to the dead-letter queue', () => {
    const queues = webhookResources('AWS::SQS::Queue');
    // Deliveries, recovery steps, the fan-out's failures and the dead letters.
    expect(queues).toHaveLength(4);
    for (const queue of queues) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    const policies = webhookResources('AWS::SQS::QueuePolicy');
    expect(policies).toHaveLength(4);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: webhookDeliveryQueue.visibilityTimeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: arnOf(stack.webhooks.deadLetterQueue), maxReceiveCount: 5 },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: webhookRecoveryQueue.visibilityTimeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: arnOf(stack.webhooks.deadLetterQueue), maxReceiveCount: Match.anyValue() },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 86_400 });
  });

  it('feeds the fan-out from the table stream: idea items only, partial failures, bisect, bounded retries, on-failure queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(stack.webhooks.fanOut),
      EventSourceArn: { 'Fn::GetAtt': [stack.resolve((stack.table.node.defaultChild as any).logicalId), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 99,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 86_400,
      ParallelizationFactor: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: arnOf(stack.webhooks.fanOutFailureQueue) } },
      FilterCriteria: { Filters: ideaAndResponseChanges.filters.map((pattern) => ({ Pattern: JSON.stringify(pattern) })) },
    });
  });

  it('feeds the delivery function from the delivery queue with partial batch failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(stack.webhooks.delivery),
      EventSourceArn: arnOf(stack.webhooks.deliveryQueue),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
  });

  it('gives the delivery function its queues, a timeout under the visibility timeout, and send rights on both queues', () => {
    const fn = resources('AWS::Lambda::Function').find((f) =>
      JSON.stringify(f.Properties.Environment?.Variables ?? {}).includes('WEBHOOK_DEAD_LETTER_QUEUE_URL'),
    )!;
    expect(fn.Properties.Timeout).toBe(30);
    expect(fn.Properties.Timeout * 6).toBeLessThanOrEqual(webhookDeliveryQueue.visibilityTimeoutSeconds);
    const sends = statementsOf(stack.webhooks.delivery).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    const targets = sends.flatMap((s) => [s.Resource].flat()).map((r) => JSON.stringify(r));
    expect(targets).toContain(JSON.stringify(arnOf(stack.webhooks.deliveryQueue)));
    expect(targets).toContain(JSON.stringify(arnOf(stack.webhooks.deadLetterQueue)));
    // A message that arrives before its record is ready is made visible again sooner than the visibility timeout.
    const actions = statementsOf(stack.webhooks.delivery).flatMap((s) => [s.Action].flat());
    expect(actions).toContain('sqs:ChangeMessageVisibility');
  });

  it('wires the queue into routes that declare it, and only into those', () => {
    for (const route of routes) {
      const fn = stack.functions.get(route.operationId)!;
      const statements = statementsOf(fn);
      const deliveryQueueArn = JSON.stringify(arnOf(stack.webhooks.deliveryQueue));
      // Resources as the parent passes them in (the function may sit in a nested stack).
      const canSend = statements.some(
        (s) =>
          [s.Action].flat().includes('sqs:SendMessage') &&
          [s.Resource].flat().some((r) => JSON.stringify(inParent(fn, r)) === deliveryQueueArn),
      );
      const needsQueue = route.needs?.includes('webhook-delivery-queue') ?? false;
      expect(canSend, route.operationId).toBe(needsQueue);
      if (needsQueue) {
        // The function sits in its area's nested stack; the parent passes the queue's URL in.
        const resolved = Stack.of(fn).resolve((fn.node.defaultChild as any).environment);
        expect(inParent(fn, resolved.variables.WEBHOOK_DELIVERY_QUEUE_URL), route.operationId).toEqual(
          stack.resolve(stack.webhooks.deliveryQueue.queueUrl),
        );
        const sends = statements.filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
        expect(
          sends.flatMap((s) => [s.Resource].flat()).map((r) => inParent(fn, r)),
          route.operationId,
        ).toEqual([arnOf(stack.webhooks.deliveryQueue)]);
      }
    }
    expect(routes.some((r) => r.needs?.includes('webhook-delivery-queue'))).toBe(true);
  });

  it('gives the enable route time for a 10 s verification', () => {
    const enable = stack.functions.get('enableWebhook')!;
    expect((enable.node.defaultChild as any).timeout).toBeGreaterThanOrEqual(15);
  });

  it('alarms on dead letters, fan-out failures, stream iterator age and delivery backlog, notifying the alarm topic', () => {
    const alarms = webhookResources('AWS::CloudWatch::Alarm');
    const metrics = alarms.map((a) => a.Properties.MetricName);
    expect(metrics.filter((m) => m === 'ApproximateNumberOfMessagesVisible')).toHaveLength(2);
    expect(metrics).toContain('IteratorAge');
    expect(metrics).toContain('ApproximateAgeOfOldestMessage');
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        {
          Name: 'QueueName',
          Value: { 'Fn::GetAtt': [stack.resolve((stack.webhooks.deadLetterQueue.node.defaultChild as any).logicalId), 'QueueName'] },
        },
      ],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: ['arn:aws:sns:eu-west-1:123456789012:on-call'],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'IteratorAge',
      Dimensions: Match.arrayWith([Match.objectLike({ Name: 'FunctionName', Value: ref(stack.webhooks.fanOut) })]),
      Threshold: 300_000,
    });
  });
});
