/**
 * Configuration accessors. Each reads its variable when first asked and throws when a required one
 * is missing, so a misconfigured function fails loudly at cold start instead of running with ''.
 */

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}

function integer(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`Environment variable ${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function flag(name: string): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`Environment variable ${name} must be true or false, got "${raw}"`);
}

function absoluteHttpUrl(name: string): string {
  const value = required(name);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Environment variable ${name} must be an absolute URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Environment variable ${name} must be an http(s) URL`);
  return value.replace(/\/+$/, '');
}

export const config = {
  /** The single DynamoDB table. */
  tableName: () => required('TABLE_NAME'),
  /**
   * The parent domain of workspace hosts: a request to `<slug>.<domain>` selects workspace `slug`
   * from its Host header, and `cxctl workspace create` prints `<slug>.<domain>` as the value of
   * X-Service-Workspace-Host.
   */
  workspaceDomain: () => (process.env.WORKSPACE_DOMAIN ?? 'localhost').toLowerCase(),
  /** Requests per minute for a key created without --rate-limit. */
  defaultRateLimitPerMinute: () => integer('DEFAULT_RATE_LIMIT_PER_MINUTE', 600, 1),
  /**
   * The request budget of a workspace that has none of its own (`cxctl workspace set-limit`): the
   * plan's default, across all the workspace's keys (lib/platform/tenants/budget.ts). The stack sets
   * it from `-c workspaceRequestsPerSecond` and `-c workspaceBurst`; the burst defaults to twice the rate.
   */
  workspaceBudget: () => {
    const requestsPerSecond = integer('WORKSPACE_REQUESTS_PER_SECOND', 1000, 1);
    return { requestsPerSecond, burst: integer('WORKSPACE_BURST', 2 * requestsPerSecond, 1) };
  },
  /**
   * Seconds between an instance's writes of the usage it buffered (lib/platform/data/usage-writes.ts):
   * what a crash can lose at most of one instance, against one write per workspace hour and day each time.
   */
  usageFlushSeconds: () => integer('USAGE_FLUSH_SECONDS', 1, 0),
  /** The unit prices usage is priced with (lib/platform/tenants/prices.ts): us-east-1's, or a JSON object of changes. */
  usagePrices: () => process.env.USAGE_PRICES,
  /** Length of one rate-limit window. 60 s in production; tests shorten it. */
  rateLimitWindowSeconds: () => integer('RATE_LIMIT_WINDOW_SECONDS', 60, 1),
  /**
   * Failed authentications (unknown key, wrong or rotated-away secret) one source address may make
   * per rate-limit window before it gets 429 instead of 401. Valid keys are never braked by it.
   */
  authFailuresPerWindow: () => integer('AUTH_FAILURES_PER_WINDOW', 60, 1),
  /**
   * OAuth client registrations (POST /oauth/register, open to anyone) one source address may make per
   * rate-limit window, across every workspace, before it gets 429: a real client registers once.
   */
  oauthRegistrationsPerWindow: () => integer('OAUTH_REGISTRATIONS_PER_WINDOW', 10, 1),
  /** Where the API and the stream consumer queue webhook deliveries (routes that declare `needs`). */
  webhookDeliveryQueueUrl: () => required('WEBHOOK_DELIVERY_QUEUE_URL'),
  /** Where deliveries go once their retries are exhausted. */
  webhookDeadLetterQueueUrl: () => required('WEBHOOK_DEAD_LETTER_QUEUE_URL'),
  /** Where `POST /webhooks/{id}/recover` queues a recovery's first step, and each step its next. */
  webhookRecoveryQueueUrl: () => required('WEBHOOK_RECOVERY_QUEUE_URL'),
  /** Seconds between delivery attempts (comma-separated); the default spans about two days. */
  webhookRetryDelays: () => process.env.WEBHOOK_RETRY_DELAYS,
  /** How long every attempt must fail before a webhook is disabled (lib/webhooks/failure-window.ts parses it; 5 days when unset). */
  webhookDisableAfterSeconds: () => process.env.WEBHOOK_DISABLE_AFTER_SECONDS,
  /** Lets webhook URLs reach loopback and private networks (the local sandbox); never in AWS. */
  webhookAllowPrivateNetworks: () => flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
  /** Accepts plain `http:` webhook URLs besides `https:` (the local sandbox). */
  webhookAllowHttp: () => flag('WEBHOOK_ALLOW_HTTP'),
  /**
   * Where the guides (docs/*.md) are published, e.g. `https://github.com/acme/cx-portal-api/blob/main/docs/`:
   * the OpenAPI document links them there (guides.ts), read when the document is built (the sandbox at
   * start, CDK's bundling, `npm run openapi`). Unset, the document names a guide without a link, as a
   * repository path would mean nothing to a reader of a deployed copy.
   */
  docsBaseUrl: () => {
    const raw = process.env.DOCS_BASE_URL;
    if (raw === undefined || raw === '') return undefined;
    if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(raw)) throw new Error(`DOCS_BASE_URL must be an absolute http(s) URL, got "${raw}"`);
    return raw.endsWith('/') ? raw : `${raw}/`;
  },
  /** The API reference page (docs/…html rendered by scripts/build-docs.ts) that GET /docs serves. */
  apiReferenceFile: () => required('API_REFERENCE_FILE'),
  openApiDocumentFile: () => required('OPENAPI_DOCUMENT_FILE'),
  /**
   * The API's own base URL (`https://api.<domain>/api/v1`, or the execute-api endpoint, or the sandbox's
   * `http://127.0.0.1:<PORT>/api/v1`), which the MCP server calls with its caller's key. Set by the stack
   * (or the sandbox) and never taken from a request, so no caller can point the server elsewhere.
   */
  apiBaseUrl: () => absoluteHttpUrl('API_BASE_URL'),
  /**
   * The address of a workspace's own host, `{workspace}` standing for its slug, e.g.
   * `https://{workspace}.portal.example.com` (the stack sets it with a custom domain) or
   * `http://{workspace}.localhost:3000` (the sandbox). OAuth for the MCP server lives there: its
   * resource, issuer and endpoints (lib/mcp/oauth/). Unset, OAuth is not offered.
   */
  workspaceOrigin: (workspace: string): string | undefined => {
    const template = process.env.WORKSPACE_URL_TEMPLATE;
    if (template === undefined || template === '') return undefined;
    if (!/^https?:\/\/\{workspace\}\.[^/\s]+$/.test(template)) {
      throw new Error(`WORKSPACE_URL_TEMPLATE must be http(s)://{workspace}.<domain>[:port], got "${template}"`);
    }
    return template.replace('{workspace}', workspace);
  },
  /** Survey exports: the bucket their files go to, and the queue the export writer takes jobs from. */
  surveyExportBucket: () => required('SURVEY_EXPORT_BUCKET'),
  surveyExportQueueUrl: () => required('SURVEY_EXPORT_QUEUE_URL'),
  /**
   * Bytes of heap the search function's index cache may fill (lib/knowledge-bank/search/index-cache.ts):
   * by default half the function's memory (Lambda sets AWS_LAMBDA_FUNCTION_MEMORY_SIZE, in MB; 512
   * outside Lambda). Lambda's Node.js bootstrap gives V8's old space about 90 % of it; the other half
   * is for the runtime, the SDK, a cold load's buffers and a page of live content.
   */
  searchIndexCacheBytes: () =>
    integer('KB_SEARCH_CACHE_BYTES', Math.floor((integer('AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 512, 128) * 1024 * 1024) / 2), 1),
  flag,
  required,
  integer,
};
