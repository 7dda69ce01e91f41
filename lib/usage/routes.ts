/** The Usage area: what a workspace used, and what that cost (docs/operating.md, "Tenants"). */
import { okBody, routesOf } from '../platform/route.ts';
import { MAX_DAYS, MAX_HOURS, usage, usageQuery } from './schemas.ts';

const route = routesOf({ tag: 'Usage', module: null, functions: 'functions/usage' });

export const getUsage = route({
  operationId: 'getUsage',
  method: 'GET',
  path: '/usage',
  summary: "The workspace's usage and its cost",
  description:
    'What the workspace used between `from` and `to`, by hour or by day (UTC), as AWS bills it: its requests across all its keys ' +
    '(each operation by status class), the DynamoDB read and write units its requests consumed (DynamoDB’s own figures), webhook ' +
    'deliveries, searches, export bytes, and `estimatedCostUsd` at the deployment’s unit prices. Counted once a request’s key ' +
    'was verified. Usage is written by each Lambda instance about once a second, so the last second or so may not be in it yet. ' +
    `At most ${MAX_HOURS} hours or ${MAX_DAYS} days a report. Needs \`usage:read\`, which no key holds unless it is given it.`,
  permissions: ['usage:read'],
  request: { query: usageQuery },
  response: { status: 200, body: okBody({ usage }) },
  errors: {
    400: {
      invalid_query: `also \`from\` not before \`to\`, or more than ${MAX_HOURS} hours (${MAX_DAYS} days by day) between them`,
    },
  },
  table: ['Query'],
});
