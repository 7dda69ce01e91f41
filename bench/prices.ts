import { DEFAULT_UNIT_PRICES } from '../lib/platform/tenants/prices.ts';

/**
 * AWS's published on-demand prices the cost table uses, all in one place, for us-east-1 (other
 * regions differ by a few per cent). Checked against the public pricing pages in November 2026;
 * DynamoDB's are the on-demand prices after the 50 % reduction of November 2024. Verify them at
 * https://aws.amazon.com/api-gateway/pricing/, https://aws.amazon.com/lambda/pricing/ and
 * https://aws.amazon.com/dynamodb/pricing/on-demand/ before budgeting.
 */
export const PRICES = {
  // The unit prices of one request (HTTP API, Lambda, DynamoDB, SQS, data out): the ones usage is priced with.
  ...DEFAULT_UNIT_PRICES,
  /** DynamoDB storage per GB-month, and continuous backups (point-in-time recovery) per GB-month. */
  dynamoDbStoragePerGbMonth: 0.25,
  dynamoDbPitrPerGbMonth: 0.2,
  /** CloudWatch: a dashboard a month, a standard-resolution alarm a month, log ingestion per GB. */
  cloudWatchDashboardPerMonth: 3.0,
  cloudWatchAlarmPerMonth: 0.1,
  cloudWatchLogsPerGbIngested: 0.5,
  /** CloudWatch Contributor Insights: a rule a month (the top workspaces), and each million log lines it matches. */
  cloudWatchInsightRulePerMonth: 0.5,
  cloudWatchInsightRulePerMillionEvents: 0.02,
  /** Secrets Manager: the cursor signing key. */
  secretPerMonth: 0.4,
} as const;
