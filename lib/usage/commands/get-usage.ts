/**
 * GET /usage: the workspace's usage between two moments, by hour or day, priced. This instance's own
 * buffered usage is written first (a usage write, not the operation's: it does not wait for the
 * rate-limit verdict), so a report read through it includes every request it answered; then the
 * read, which like every read runs beside the request's counts.
 */
import { config } from '../../platform/config.ts';
import { flushUsage } from '../../platform/data/usage-writes.ts';
import { ValidationError } from '../../platform/errors.ts';
import { unitPrices } from '../../platform/tenants/prices.ts';
import { type Granularity, type UsageReport, usageReport } from '../../platform/tenants/usage.ts';
import { usageRange } from '../../platform/tenants/usage-range.ts';
import { MAX_DAYS, MAX_HOURS } from '../schemas.ts';
import { listUsagePeriods } from '../store/usage.ts';

const prices = unitPrices(config.usagePrices());

export async function getUsage(
  workspace: string,
  asked: { from?: string; to?: string; granularity?: Granularity },
): Promise<UsageReport & { from: string; to: string; granularity: Granularity }> {
  const range = usageRange(asked, Date.now(), { maxHours: MAX_HOURS, maxDays: MAX_DAYS });
  if ('problem' in range) throw new ValidationError('invalid_query', [{ path: `query.${range.field}`, message: range.problem }]);
  await flushUsage({ force: true });
  const periods = await listUsagePeriods(workspace, range.granularity, range.first, range.last);
  return { from: range.from, to: range.to, granularity: range.granularity, ...usageReport(periods, range.granularity, prices) };
}
