/**
 * AWS's published on-demand unit prices, for what one request costs (`estimatedCostUsd` of
 * GET /usage and `cxctl usage`) and for the cost tables (bench/prices.ts adds the monthly ones).
 * us-east-1 by default, checked against the public pricing pages in November 2026 (DynamoDB's after
 * the 50 % reduction of November 2024): https://aws.amazon.com/api-gateway/pricing/,
 * https://aws.amazon.com/lambda/pricing/, https://aws.amazon.com/dynamodb/pricing/on-demand/,
 * https://aws.amazon.com/sqs/pricing/, https://aws.amazon.com/ec2/pricing/on-demand/ (data transfer).
 * Another region's prices are a setting: `USAGE_PRICES` (the stack's `-c usagePrices`), a JSON object
 * of the fields to change, e.g. `{"region":"eu-west-1","lambdaArmPerGbSecond":0.0000133334}`.
 */
export const DEFAULT_UNIT_PRICES = {
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
  /** SQS standard queues, per million requests (64 KB chunks). */
  sqsPerMillionRequests: 0.4,
  /** Data transferred out to the internet, per GB (the first 10 TB a month). */
  dataOutPerGb: 0.09,
};

export type UnitPrices = typeof DEFAULT_UNIT_PRICES;

/** The prices with `override` (USAGE_PRICES) applied; a field that is not a price is refused. */
export function unitPrices(override: string | undefined): UnitPrices {
  if (override === undefined || override === '') return DEFAULT_UNIT_PRICES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(override);
  } catch {
    throw new Error('USAGE_PRICES must be a JSON object of prices');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('USAGE_PRICES must be a JSON object of prices');
  for (const [field, value] of Object.entries(parsed)) {
    if (!(field in DEFAULT_UNIT_PRICES)) throw new Error(`USAGE_PRICES: no price named "${field}"`);
    const textual = field === 'region' || field === 'checked';
    if (textual ? typeof value !== 'string' : typeof value !== 'number' || !(value >= 0)) {
      throw new Error(`USAGE_PRICES: ${field} must be ${textual ? 'a string' : 'a number of dollars, 0 or more'}`);
    }
  }
  return { ...DEFAULT_UNIT_PRICES, ...(parsed as Partial<UnitPrices>) };
}
