/**
 * Business metrics (ideas created, webhook deliveries) as CloudWatch metrics through Powertools
 * Metrics: one Embedded Metric Format line in the function's log, which CloudWatch turns into a
 * metric with no API call and no extra latency. The dashboard (cdk/constructs/dashboard.ts) reads
 * them by these names. No personal data and no tenant id goes into a dimension (a dimension per
 * workspace would be a custom metric per workspace, billed each).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'CxPortalApi';
export const SERVICE_NAME = 'cx-portal-api';
export const BUSINESS_METRICS = ['IdeasCreated', 'WebhookDeliveriesSucceeded', 'WebhookDeliveriesFailed'] as const;
type BusinessMetric = (typeof BUSINESS_METRICS)[number];

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

/** Counts one business event now: published at once, so no event is lost if the function later fails. */
export function countBusinessEvent(name: BusinessMetric, count = 1): void {
  metrics.addMetric(name, MetricUnit.Count, count);
  metrics.publishStoredMetrics();
}
