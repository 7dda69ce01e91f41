/**
 * One CloudWatch dashboard per deployment: what an operator looks at first when an alarm fires or a
 * tenant complains. Rows, top to bottom: what callers see (requests, 4xx, 5xx, latency), the
 * busiest workspaces, what the business does (ideas created, webhook deliveries), the table, the
 * webhook pipeline, the knowledge bank's background work, then one row per area with its functions.
 * Every graph reads metrics AWS or Powertools Metrics (lib/platform/metrics.ts) already publish, or
 * the top-workspace rules' reports (tenant-insights.ts, billed per usage write, not per request).
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Dashboard, GraphWidget, type IMetric, type IWidget, Metric, SingleValueWidget, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type BUSINESS_METRICS, METRICS_NAMESPACE, SERVICE_NAME } from '../../lib/platform/metrics.ts';
import { TABLE_OPERATIONS } from './service-alarms.ts';

export interface ServiceDashboardProps {
  api: HttpApi;
  /** The top workspaces by requests and by capacity units (tenant-insights.ts). */
  topWorkspaces: readonly IWidget[];
  table: ITable;
  /** Each area's route functions, by area name, then by operationId. */
  areas: ReadonlyMap<string, ReadonlyMap<string, IFunction>>;
  webhooks: { fanOut: IFunction; delivery: IFunction; deliveryQueue: IQueue; deadLetterQueue: IQueue; fanOutFailureQueue: IQueue };
  knowledgeBank: {
    builder: IFunction;
    builderFailureQueue: IQueue;
    checker: IFunction;
    linkCheckQueue: IQueue;
    linkCheckDeadLetterQueue: IQueue;
  };
}

const PERIOD = Duration.minutes(5);
const FULL = 24;
const HALF = 12;
const QUARTER = 6;

export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    const graph = (title: string, left: IMetric[], width = QUARTER, right: IMetric[] = []) =>
      new GraphWidget({ title, left, right, width, height: 6, period: PERIOD });
    const business = (name: (typeof BUSINESS_METRICS)[number]) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: SERVICE_NAME },
        statistic: 'Sum',
        period: PERIOD,
      });

    const { api, table, webhooks, knowledgeBank } = props;
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: "## Callers\nEvery request through the HTTP API (our envelope and API Gateway's own answers alike).",
        width: FULL,
        height: 1,
      }),
      graph('Requests', [api.metricCount({ period: PERIOD, statistic: 'Sum' })]),
      graph('4xx (client errors)', [api.metricClientError({ period: PERIOD, statistic: 'Sum' })]),
      graph('5xx (server errors)', [api.metricServerError({ period: PERIOD, statistic: 'Sum' })]),
      graph('Latency p50 / p99 (ms)', [
        api.metricLatency({ period: PERIOD, statistic: 'p50' }),
        api.metricLatency({ period: PERIOD, statistic: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '## Tenants\nThe busiest workspaces (Contributor Insights over each instance’s usage writes); each workspace’s ' +
          'usage and cost: `cxctl usage --all`.',
        width: FULL,
        height: 1,
      }),
      ...props.topWorkspaces,
    );
    this.dashboard.addWidgets(
      new TextWidget({ markdown: '## Business\nPublished by the functions through Powertools Metrics (EMF).', width: FULL, height: 1 }),
      new SingleValueWidget({ title: 'Ideas created', metrics: [business('IdeasCreated')], width: HALF, height: 4, sparkline: true }),
      new SingleValueWidget({
        title: 'Webhook deliveries',
        metrics: [business('WebhookDeliveriesSucceeded'), business('WebhookDeliveriesFailed')],
        width: HALF,
        height: 4,
        sparkline: true,
      }),
    );
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: '## Table\nOn demand: capacity is what you pay for; throttles mean a hot key or a partition split in progress.',
        width: FULL,
        height: 1,
      }),
      graph('Consumed read / write units', [table.metricConsumedReadCapacityUnits({ period: PERIOD, statistic: 'Sum' })], HALF, [
        table.metricConsumedWriteCapacityUnits({ period: PERIOD, statistic: 'Sum' }),
      ]),
      graph('Throttled requests', [table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD })]),
      graph('System errors', [table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD })]),
    );
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: '## Webhooks\nStream → fan-out → delivery queue → delivery (retries) → dead letters.',
        width: FULL,
        height: 1,
      }),
      graph('Delivery queue depth', [
        webhooks.deliveryQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      ]),
      graph('Oldest delivery (s)', [webhooks.deliveryQueue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' })]),
      graph('Dead letters', [
        webhooks.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
        webhooks.fanOutFailureQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      ]),
      graph('Fan-out iterator age (ms)', [webhooks.fanOut.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' })]),
    );
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: '## Knowledge bank\nThe search index builder (table stream) and the link checker (queue).',
        width: FULL,
        height: 1,
      }),
      graph('Search builder iterator age (ms)', [knowledgeBank.builder.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' })]),
      graph('Search builder failures', [
        knowledgeBank.builder.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        knowledgeBank.builderFailureQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      ]),
      graph('Link checks waiting', [
        knowledgeBank.linkCheckQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
        knowledgeBank.linkCheckDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      ]),
      graph('Link checker errors / duration p99', [knowledgeBank.checker.metricErrors({ period: PERIOD, statistic: 'Sum' })], QUARTER, [
        knowledgeBank.checker.metricDuration({ period: PERIOD, statistic: 'p99' }),
      ]),
    );
    for (const [area, functions] of props.areas) {
      const each = (metric: (fn: IFunction, name: string) => IMetric) => [...functions].map(([name, fn]) => metric(fn, name));
      this.dashboard.addWidgets(
        new TextWidget({ markdown: `## ${area}\nOne line per operation.`, width: FULL, height: 1 }),
        graph(
          `${area}: errors`,
          each((fn, name) => fn.metricErrors({ period: PERIOD, statistic: 'Sum', label: name })),
        ),
        graph(
          `${area}: throttles`,
          each((fn, name) => fn.metricThrottles({ period: PERIOD, statistic: 'Sum', label: name })),
        ),
        graph(
          `${area}: duration p99 (ms)`,
          each((fn, name) => fn.metricDuration({ period: PERIOD, statistic: 'p99', label: name })),
        ),
        graph(
          `${area}: concurrency`,
          each((fn, name) => fn.metric('ConcurrentExecutions', { period: PERIOD, statistic: 'Maximum', label: name })),
        ),
      );
    }
  }
}
