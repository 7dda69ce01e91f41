/** The usage report's query and answer (GET /usage): what a workspace used, as AWS bills it, by hour or day. */
import * as z from 'zod/mini';
import { named } from '../platform/schemas.ts';

/** The longest periods one report covers: 7 days of hours, 92 days of days. */
export const MAX_HOURS = 7 * 24;
export const MAX_DAYS = 92;

const moment = z.union([z.iso.datetime(), z.iso.date()]);

export const usageQuery = z.strictObject({
  from: z.optional(moment).register(z.globalRegistry, {
    description:
      'The first moment counted (ISO 8601 UTC date-time, or a date for its midnight); default: 24 hours (hour) or 30 days (day) before `to`',
  }),
  to: z.optional(moment).register(z.globalRegistry, {
    description: 'The moment counting stops (excluded; a date is its midnight); default: now',
  }),
  granularity: z
    .optional(z.enum(['hour', 'day']))
    .register(z.globalRegistry, { description: `Periods of an hour (at most ${MAX_HOURS}) or a day (at most ${MAX_DAYS}); default: hour` }),
});

const capacityUnits = z.object({
  read: z.number().register(z.globalRegistry, { description: 'DynamoDB read request units consumed, as DynamoDB reported them' }),
  write: z.number().register(z.globalRegistry, { description: 'DynamoDB write request units consumed, as DynamoDB reported them' }),
});

const figures = {
  requests: z.number().register(z.globalRegistry, { description: 'API requests whose key was verified, whatever they answered' }),
  capacityUnits,
  deliveries: z.number().register(z.globalRegistry, { description: 'Webhook delivery attempts made' }),
  searches: z.number().register(z.globalRegistry, { description: 'Knowledge-bank searches answered' }),
  exportBytes: z.number().register(z.globalRegistry, { description: 'Bytes of survey export files written' }),
  bytesOut: z.number().register(z.globalRegistry, { description: 'Bytes of the API’s answers' }),
  sqsRequests: z.number().register(z.globalRegistry, { description: 'SQS requests the workspace’s requests and work sent' }),
  gbSeconds: z.number().register(z.globalRegistry, { description: 'Lambda duration × memory, in GB-seconds, as measured' }),
  estimatedCostUsd: z.number().register(z.globalRegistry, {
    description: 'What these cost at the deployment’s unit prices (requests, Lambda, DynamoDB units, SQS, data out; not storage)',
  }),
};

const statusClasses = z.object({ '2xx': z.number(), '3xx': z.number(), '4xx': z.number(), '5xx': z.number() });

export const usage = named(
  'Usage',
  z.object({
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['hour', 'day']),
    totals: z.object(figures),
    periods: z.array(z.object({ start: z.string(), granularity: z.enum(['hour', 'day']), ...figures })),
    operations: z.record(z.string(), z.object({ requests: z.number(), byStatusClass: statusClasses, capacityUnits })),
  }),
);
