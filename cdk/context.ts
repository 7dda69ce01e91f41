/**
 * Every `-c name=value` setting of the CDK app, in one list: the app reads them only through
 * `deploymentSettings` (test/cdk/context.test.ts fails on a `tryGetContext` anywhere else), and
 * docs/deploying.md's table of settings is generated from this list (`npm run docs:deploying`), so
 * the page can name no setting the code does not read and miss none it does.
 */
import type { Node } from 'constructs';
import { linkCheckSchedule } from '../lib/knowledge-bank/link-check/pipeline.ts';
import { budgetProblem } from '../lib/platform/tenants/budget.ts';
import { unitPrices } from '../lib/platform/tenants/prices.ts';
import { DEFAULT_DISABLE_AFTER_SECONDS } from '../lib/webhooks/failure-window.ts';
import { DEFAULT_RETRY_DELAYS_SECONDS } from '../lib/webhooks/retry-schedule.ts';
import { defaultTenantAlarms } from './constructs/tenant-insights.ts';

export interface ContextSetting {
  name: string;
  /** What applies when the setting is not given, as the page shows it. */
  default: string;
  /** One sentence for the deployer. */
  description: string;
}

const DEFAULT_STACK_NAME = 'CxPortalApi';
const DEFAULT_WORKSPACE_DOMAIN = 'portal.example.com';

export const CONTEXT_SETTINGS: readonly ContextSetting[] = [
  { name: 'stackName', default: DEFAULT_STACK_NAME, description: 'The CloudFormation stack (and the prefix of its resources).' },
  {
    name: 'workspaceDomain',
    default: DEFAULT_WORKSPACE_DOMAIN,
    description:
      'Parent domain of workspace hosts (`<slug>.<domain>`) when the stack serves no domain of its own; `domainName` replaces it.',
  },
  {
    name: 'domainName',
    default: 'none',
    description:
      'Serve `api.<domain>` (the shared edge) and `*.<domain>` (workspace hosts) with a certificate and DNS records; needs `hostedZoneId`.',
  },
  { name: 'hostedZoneId', default: 'none', description: 'The Route 53 public hosted zone of `domainName`.' },
  {
    name: 'certificateArn',
    default: 'one is issued',
    description: 'Your own ACM certificate for `*.<domainName>` in the API’s region, instead of one issued and validated through DNS.',
  },
  {
    name: 'disableDefaultEndpoint',
    default: 'false',
    description: 'With `domainName`: close the `execute-api` URL, so every call goes through your hosts.',
  },
  { name: 'alarmTopicArn', default: 'none', description: 'An SNS topic every alarm notifies (e.g. wired to on-call).' },
  {
    name: 'webhookRetryDelays',
    default: DEFAULT_RETRY_DELAYS_SECONDS.join(','),
    description: 'Seconds between webhook delivery attempts (about two days in all by default).',
  },
  {
    name: 'webhookDisableAfterHours',
    default: String(DEFAULT_DISABLE_AFTER_SECONDS / 3600),
    description:
      'Hours every delivery attempt to a webhook must fail before it is disabled (its events are then held for a recovery); a 2xx restarts them.',
  },
  {
    name: 'linkCheckSchedule',
    default: linkCheckSchedule.defaultExpression,
    description: 'When knowledge-bank external links are checked: an EventBridge `rate(…)` or `cron(…)` expression.',
  },
  { name: 'tracing', default: 'false', description: 'X-Ray active tracing on every function.' },
  {
    name: 'workspaceRequestsPerSecond',
    default: '1000',
    description:
      'The plan’s request budget of a workspace across all its keys, for workspaces without their own (`cxctl workspace set-limit`).',
  },
  { name: 'workspaceBurst', default: 'twice the rate', description: 'The burst of that default budget, in requests.' },
  {
    name: 'topWorkspaceRequestsAlarm',
    default: '80 % of the plan’s budget for 5 minutes',
    description: 'Alarm when one workspace makes this many requests in five minutes (the dashboard’s top workspaces by requests).',
  },
  {
    name: 'topWorkspaceCapacityUnitsAlarm',
    default: '900000 (3,000 units a second, three partitions’ writes)',
    description: 'Alarm when one workspace’s requests consume this many DynamoDB capacity units in five minutes.',
  },
  {
    name: 'usagePrices',
    default: 'us-east-1’s',
    description:
      'The unit prices usage is priced with, as a JSON object of the ones to change (`{"region":"eu-west-1",…}`: lib/platform/tenants/prices.ts).',
  },
  {
    name: 'tableName',
    default: 'the stack creates one',
    description:
      'Deploy onto an existing table (one a destroyed stack retained, or a restore): the stack then neither creates nor manages it. Needs `tableStreamArn` and `signingSecretArn`.',
  },
  { name: 'tableStreamArn', default: 'none', description: 'The stream of `tableName` (`npx cxctl backup restore` prints it).' },
  {
    name: 'signingSecretArn',
    default: 'the stack creates one',
    description:
      'The cursor-signing secret to use instead of creating one: the one made with the table, so survey-response erasure still finds its respondents (see docs/operating.md).',
  },
];

type Name = (typeof CONTEXT_SETTINGS)[number]['name'];

export interface DeploymentSettings {
  stackName: string;
  workspaceDomain: string;
  customDomain?: { domainName: string; hostedZoneId: string; certificateArn?: string; disableDefaultEndpoint: boolean };
  alarmTopicArn?: string;
  webhookRetryDelays?: string;
  /** WEBHOOK_DISABLE_AFTER_SECONDS of the functions that make attempts; the 5-day default when absent. */
  webhookDisableAfterSeconds?: number;
  linkCheckSchedule?: string;
  existingTable?: { tableName: string; tableStreamArn: string };
  signingSecretArn?: string;
  /** What every API function is told of tenants: the plan's budget, the prices (WORKSPACE_*, USAGE_PRICES). */
  tenants: TenantSettings;
}

/** What every API function is told of tenants, and the thresholds of the top-workspace alarms. */
export interface TenantSettings {
  requestsPerSecond?: string;
  burst?: string;
  usagePrices?: string;
  alarms?: { requests: number; capacityUnits: number };
}

/** A complete secret ARN ends with the six random characters Secrets Manager appends to the name. */
const COMPLETE_SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}$/;
const STREAM_ARN = /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[A-Za-z0-9_.-]+\/stream\/.+$/;

function reader(node: Node) {
  const raw = (name: Name): string | undefined => {
    const value: unknown = node.tryGetContext(name);
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  return { raw, flag: (name: Name) => raw(name) === 'true' };
}

/** `-c tracing=true`, asked by every function as it is built (HouseFunction) with its own node. */
export function tracingEnabled(node: Node): boolean {
  return reader(node).flag('tracing');
}

/** The plan's budget and the prices, checked as the functions will read them (a bad one fails the synth, not a request). */
function tenantSettings(raw: (name: Name) => string | undefined): DeploymentSettings['tenants'] {
  const requestsPerSecond = raw('workspaceRequestsPerSecond');
  const burst = raw('workspaceBurst');
  const usagePrices = raw('usagePrices');
  const rate = Number(requestsPerSecond ?? 1000);
  const problem = budgetProblem({ requestsPerSecond: rate, burst: burst === undefined ? 2 * rate : Number(burst) });
  if (problem) throw new Error(`-c workspaceRequestsPerSecond / -c workspaceBurst: ${problem}`);
  unitPrices(usagePrices);
  const defaults = defaultTenantAlarms(rate);
  const alarms = {
    requests: wholeNumber('topWorkspaceRequestsAlarm', raw('topWorkspaceRequestsAlarm')) ?? defaults.requests,
    capacityUnits: wholeNumber('topWorkspaceCapacityUnitsAlarm', raw('topWorkspaceCapacityUnitsAlarm')) ?? defaults.capacityUnits,
  };
  return { requestsPerSecond, burst, usagePrices, alarms };
}

function wholeNumber(name: Name, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`-c ${name}: a whole number above 0, not "${value}"`);
  return Number(value);
}

/** Every setting, read from the app's context (cdk.json, then `-c`), checked once. */
export function deploymentSettings(node: Node): DeploymentSettings {
  const { raw, flag } = reader(node);
  const domainName = raw('domainName');
  const hostedZoneId = raw('hostedZoneId');
  if (domainName && !hostedZoneId) throw new Error('-c domainName needs -c hostedZoneId (the Route 53 zone of that domain)');
  const tableName = raw('tableName');
  const tableStreamArn = raw('tableStreamArn');
  const signingSecretArn = raw('signingSecretArn');
  if (tableName && !tableStreamArn) {
    throw new Error(`-c tableName=${tableName} needs -c tableStreamArn (npx cxctl --table ${tableName} backup verify prints it)`);
  }
  if (tableStreamArn && !STREAM_ARN.test(tableStreamArn))
    throw new Error(`-c tableStreamArn=${tableStreamArn} is not a DynamoDB stream ARN`);
  if (tableStreamArn && tableName && !tableStreamArn.includes(`:table/${tableName}/stream/`)) {
    throw new Error(`-c tableStreamArn=${tableStreamArn} is not the stream of table ${tableName}`);
  }
  if (tableName && !signingSecretArn) {
    throw new Error(
      `-c tableName=${tableName} needs -c signingSecretArn: the secret made with that table, or survey-response erasure ` +
        'cannot find the respondents it holds (npx cxctl backup verify prints it; docs/operating.md)',
    );
  }
  const disableAfterHours = raw('webhookDisableAfterHours');
  if (disableAfterHours !== undefined && !/^\d+(\.\d+)?$/.test(disableAfterHours)) {
    throw new Error(`-c webhookDisableAfterHours=${disableAfterHours} is not a number of hours`);
  }
  const disableAfterSeconds = disableAfterHours === undefined ? undefined : Math.round(Number(disableAfterHours) * 3600);
  if (disableAfterSeconds !== undefined && disableAfterSeconds < 1) throw new Error('-c webhookDisableAfterHours must be more than 0');
  if (signingSecretArn && !COMPLETE_SECRET_ARN.test(signingSecretArn)) {
    throw new Error(`-c signingSecretArn=${signingSecretArn} is not a complete Secrets Manager ARN (…:secret:<name>-<6 characters>)`);
  }
  return {
    stackName: raw('stackName') ?? DEFAULT_STACK_NAME,
    // A custom domain is the workspace domain too: `<workspace>.<domainName>` is a workspace host.
    workspaceDomain: domainName ?? raw('workspaceDomain') ?? DEFAULT_WORKSPACE_DOMAIN,
    customDomain:
      domainName && hostedZoneId
        ? { domainName, hostedZoneId, certificateArn: raw('certificateArn'), disableDefaultEndpoint: flag('disableDefaultEndpoint') }
        : undefined,
    alarmTopicArn: raw('alarmTopicArn'),
    webhookRetryDelays: raw('webhookRetryDelays'),
    webhookDisableAfterSeconds: disableAfterSeconds,
    linkCheckSchedule: raw('linkCheckSchedule'),
    existingTable: tableName && tableStreamArn ? { tableName, tableStreamArn } : undefined,
    signingSecretArn,
    tenants: tenantSettings(raw),
  };
}
