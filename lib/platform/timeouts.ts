/**
 * A function's timeout unless its route sets `timeoutSeconds`: the CDK stack and the sandbox both
 * use it, and the DynamoDB client's retry budget (data/client.ts) and the batch deadline
 * (data/batch.ts) are sized to fit inside it. Its own module, importing nothing, so the data kit
 * need not import the route manifest's types to know it.
 */
export const DEFAULT_TIMEOUT_SECONDS = 10;
