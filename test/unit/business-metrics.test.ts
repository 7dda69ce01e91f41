/**
 * Business metrics leave the function as Embedded Metric Format lines on stdout, which CloudWatch
 * Logs turns into the metrics the dashboard graphs (cdk/constructs/dashboard.ts): the line must name
 * the namespace, the `service` dimension and the metric the dashboard reads.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function emitted(action: (metrics: typeof import('../../lib/platform/metrics.ts')) => void): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const metrics = await import('../../lib/platform/metrics.ts');
  action(metrics);
  return lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes('_aws'))
    .map((line) => JSON.parse(line));
}

describe('countBusinessEvent', () => {
  it('publishes one EMF record with the namespace, the service dimension and the count', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const [record, ...rest] = await emitted((m) => m.countBusinessEvent('IdeasCreated'));
    expect(rest).toEqual([]);
    expect(record!._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'CxPortalApi',
      Dimensions: [['service']],
      Metrics: [{ Name: 'IdeasCreated', Unit: 'Count' }],
    });
    expect(record).toMatchObject({ service: 'cx-portal-api', IdeasCreated: 1 });
  });

  it('stays silent where metrics are switched off (the sandbox default)', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    expect(await emitted((m) => m.countBusinessEvent('WebhookDeliveriesFailed'))).toEqual([]);
  });
});
