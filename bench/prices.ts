/**
 * AWS's published on-demand prices the cost table uses, all in one place, for us-east-1 (other
 * regions differ by a few per cent). Checked against the public pricing pages in November 2026;
 * DynamoDB's are the on-demand prices after the 50 % reduction of November 2024. Verify them at
 * https://aws.amazon.com/api-gateway/pricing/, https://aws.amazon.com/lambda/pricing/ and
 * https://aws.amazon.com/dynamodb/pricing/on-demand/ before budgeting.
 */
export const PRICES = {
  checked: '2026-11',
  region: 'us-east-1',
  /** HTTP API, per million requests (first 300 million a month). */
  httpApiPerMillionRequests: 1.0,
  /** Lambda, per million invocations. */
  lambdaPerMillionRequests: 0.2,
  /** Lambda on arm64 (Graviton), per GB-second of billed duration (first 7.5 billion GB-s a month). */
  lambdaArmPerGbSecond: 0.0000133334,
  /** DynamoDB on demand: per million write request units, per million read request units. */
  dynamoDbPerMillionWriteUnits: 0.625,
  dynamoDbPerMillionReadUnits: 0.125,
  /** DynamoDB storage per GB-month, and continuous backups (point-in-time recovery) per GB-month. */
  dynamoDbStoragePerGbMonth: 0.25,
  dynamoDbPitrPerGbMonth: 0.2,
  /** CloudWatch: a dashboard a month, a standard-resolution alarm a month, log ingestion per GB. */
  cloudWatchDashboardPerMonth: 3.0,
  cloudWatchAlarmPerMonth: 0.1,
  cloudWatchLogsPerGbIngested: 0.5,
  /** Secrets Manager: the cursor signing key. */
  secretPerMonth: 0.4,
} as const;
