/**
 * The deployed service: the single table, an HTTP API with a `$default` route that answers unknown
 * paths in the API's error envelope, the webhook delivery pipeline fed by the table's stream, the
 * service-wide alarms, and one nested stack per area holding a Lambda function per route.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, type ITable, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { GSI1_NON_KEY_ATTRIBUTES } from '../lib/entities.ts';
import { API_PREFIX, NOT_FOUND_HANDLER, routes } from '../lib/manifest.ts';
import { TABLE } from '../lib/platform/data/table.ts';
import { SHARED_EDGE_LABEL } from '../lib/platform/http/workspace-host.ts';
import { stackOf } from '../lib/platform/route.ts';
import { HouseFunction } from './constructs/api-function.ts';
import { AreaStack } from './constructs/area-stack.ts';
import { CustomDomains, type CustomDomainsProps } from './constructs/custom-domains.ts';
import { ServiceDashboard } from './constructs/dashboard.ts';
import { KnowledgeBankSearch } from './constructs/knowledge-bank-search.ts';
import { ReleaseGate } from './constructs/release-gate.ts';
import { ServiceAlarms } from './constructs/service-alarms.ts';
import { SurveyExports } from './constructs/survey-exports.ts';
import { defaultTenantAlarms, TenantInsights } from './constructs/tenant-insights.ts';
import { WebhookPipeline } from './constructs/webhook-pipeline.ts';
import type { TenantSettings } from './context.ts';

/**
 * One JSON line per request: its id (the X-Request-Id our answers carry), route and status, where
 * the time went (responseLatency against integrationLatency), and why an integration failed
 * (integrationErrorMessage, e.g. a function timeout, which our envelope never gets to report).
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    sourceIp: '$context.identity.sourceIp',
    method: '$context.httpMethod',
    path: '$context.path',
    routeKey: '$context.routeKey',
    status: '$context.status',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationStatus: '$context.integrationStatus',
    integrationLatency: '$context.integrationLatency',
    integrationErrorMessage: '$context.integrationErrorMessage',
    errorMessage: '$context.error.message',
  }),
);

export interface PortalApiStackProps extends StackProps {
  /** Parent domain of workspace hosts (`<slug>.<domain>`). */
  workspaceDomain: string;
  /** Stage-wide throttle in front of the per-key limits. */
  throttle?: { rateLimit: number; burstLimit: number };
  /** An existing SNS topic the operational alarms notify (e.g. wired to on-call). */
  alarmTopicArn?: string;
  /** WEBHOOK_RETRY_DELAYS for the delivery function; the two-day default when absent. */
  webhookRetryDelays?: string;
  /** WEBHOOK_DISABLE_AFTER_SECONDS for the functions that make attempts; the 5-day default when absent. */
  webhookDisableAfterSeconds?: number;
  /** How often external links are checked (EventBridge `rate(…)` or `cron(…)`); daily when absent. */
  linkCheckSchedule?: string;
  /**
   * Serve the shared edge `api.<domain>` and the workspace hosts `*.<domain>` on the operator's own
   * domain (`-c domainName=… -c hostedZoneId=… [-c certificateArn=…] [-c disableDefaultEndpoint=true]`).
   * `domainName` then is the workspace domain too.
   */
  customDomain?: Omit<CustomDomainsProps, 'api' | 'stage'> & { disableDefaultEndpoint?: boolean };
  /**
   * Deploy onto a table that exists already (one a destroyed stack retained, or a restored copy)
   * instead of creating one: the stack then neither creates nor manages it (docs/operating.md).
   */
  existingTable?: { tableName: string; tableStreamArn: string };
  /** The plan's request budget of a workspace and the usage prices (`-c workspaceRequestsPerSecond`, …; cdk/context.ts). */
  tenants?: TenantSettings;
  /**
   * The cursor-signing secret made with the table's data, instead of a new one: survey-response
   * erasure finds respondents by a hash keyed with it, so data and secret must stay together.
   */
  signingSecretArn?: string;
}

export class PortalApiStack extends Stack {
  readonly table: ITable;
  readonly api: HttpApi;
  /** Every route's function, by operationId (each lives in its area's nested stack). */
  readonly functions = new Map<string, HouseFunction>();
  /** The nested stack of each area, by the manifest's `tag`. */
  /** The nested stack of each area (the manifest's `tag`, or a route's `deployedIn`). */
  readonly areas = new Map<string, AreaStack>();
  readonly webhooks: WebhookPipeline;
  /**
   * The HMAC key of list cursors (lib/platform/pagination.ts) and, derived from it, of the respondent
   * hashes survey-response erasure finds people by (lib/platform/keyed-hash.ts): generated at the
   * first deploy and retained when the stack is deleted, like the table whose hashes it keys.
   */
  readonly cursorSigningKey: ISecret;
  readonly alarms: ServiceAlarms;
  readonly knowledgeBankSearch: KnowledgeBankSearch;
  readonly customDomains?: CustomDomains;
  readonly dashboard: ServiceDashboard;
  readonly surveyExports: SurveyExports;
  readonly releaseGate: ReleaseGate;

  constructor(scope: Construct, id: string, props: PortalApiStackProps) {
    super(scope, id, props);

    this.table = props.existingTable
      ? // Neither created nor managed here: a later deploy or a delete of this stack leaves it alone.
        Table.fromTableAttributes(this, 'Table', { ...props.existingTable, globalIndexes: [TABLE.gsi1.name] })
      : createTable(this);

    if (props.customDomain && props.customDomain.domainName !== props.workspaceDomain) {
      throw new Error(`The custom domain ${props.customDomain.domainName} must be the workspace domain (${props.workspaceDomain})`);
    }
    const environment = {
      WORKSPACE_DOMAIN: props.workspaceDomain,
      // Workspace hosts exist only on a custom domain: there, OAuth for the MCP server lives on each (lib/mcp/oauth/).
      ...(props.customDomain ? { WORKSPACE_URL_TEMPLATE: `https://{workspace}.${props.customDomain.domainName}` } : {}),
      POWERTOOLS_SERVICE_NAME: 'cx-portal-api',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      // The plan's budget of a workspace across its keys, and the prices its usage is priced with (docs/operating.md, "Tenants").
      ...(props.tenants?.requestsPerSecond ? { WORKSPACE_REQUESTS_PER_SECOND: props.tenants.requestsPerSecond } : {}),
      ...(props.tenants?.burst ? { WORKSPACE_BURST: props.tenants.burst } : {}),
      ...(props.tenants?.usagePrices ? { USAGE_PRICES: props.tenants.usagePrices } : {}),
    };

    const notFound = new HouseFunction(this, 'NotFound', { entry: NOT_FOUND_HANDLER, environment });
    this.api = new HttpApi(this, 'Api', {
      description: 'Customer Experience Portal API',
      createDefaultStage: false,
      // With a custom domain an operator may close execute-api, so every call goes through their hosts.
      disableExecuteApiEndpoint: props.customDomain?.disableDefaultEndpoint ?? false,
      defaultIntegration: new HttpLambdaIntegration('NotFoundIntegration', notFound),
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 1000, burstLimit: 2000 },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });

    const alarmAction = props.alarmTopicArn ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn)) : undefined;
    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table: this.table,
      environment,
      retryDelays: props.webhookRetryDelays,
      disableAfterSeconds: props.webhookDisableAfterSeconds,
      alarmAction,
    });

    // One nested stack per area (the manifest's `tag`): each route costs RESOURCES_PER_ROUTE
    // resources, so one stack for all areas outgrew CloudFormation's 500 (test/cdk holds every stack
    // to a budget with room for an area to double). Least privilege stays per function.
    // Generated by Secrets Manager, so the key appears in no template, environment or log; only the
    // functions of lists that take a cursor, and of erasure, may read it (once per cold start).
    this.cursorSigningKey = props.signingSecretArn
      ? Secret.fromSecretCompleteArn(this, 'CursorSigningKey', props.signingSecretArn)
      : new Secret(this, 'CursorSigningKey', {
          description: 'HMAC key that signs list cursors (pagination.nextCursor) and keys respondent hashes (survey-response erasure)',
          generateSecretString: { passwordLength: 64, excludePunctuation: true },
          // Kept when the stack is deleted: the table is too, and its respondent hashes are keyed with
          // this secret, so a new one would make erasure find nobody (docs/operating.md).
          removalPolicy: RemovalPolicy.RETAIN,
        });

    // Where a function that calls the API (the MCP server) calls it: the shared edge on a custom domain
    // (which works with execute-api closed), else execute-api. Fixed here, never taken from a request.
    const apiBaseUrl = props.customDomain
      ? `https://${SHARED_EDGE_LABEL}.${props.customDomain.domainName}${API_PREFIX}`
      : `${this.api.apiEndpoint}${API_PREFIX}`;
    const stackNames = [...new Set(routes.map(stackOf))];
    for (const tag of stackNames) {
      const areaRoutes = routes.filter((route) => stackOf(route) === tag);
      const area = new AreaStack(this, `${tag.replaceAll(' ', '')}Routes`, {
        description: `${tag}: one function, API route and errors alarm per operation`,
        routes: areaRoutes,
        table: this.table,
        api: this.api,
        deliveryQueue: this.webhooks.deliveryQueue,
        recoveryQueue: this.webhooks.recoveryQueue,
        cursorSigningKey: this.cursorSigningKey,
        environment,
        apiBaseUrl,
        alarmAction,
      });
      this.areas.set(tag, area);
      for (const [operationId, fn] of area.functions) this.functions.set(operationId, fn);
    }

    this.knowledgeBankSearch = new KnowledgeBankSearch(this, 'KnowledgeBankSearch', {
      table: this.table,
      environment,
      routeFunctions: this.functions,
      linkCheckSchedule: props.linkCheckSchedule,
      alarmAction,
    });

    this.surveyExports = new SurveyExports(this, 'SurveyExports', { table: this.table, environment, routeFunctions: this.functions });

    this.alarms = new ServiceAlarms(this, 'Alarms', {
      api: this.api,
      table: this.table,
      functions: new Map<string, IFunction>([
        ['notFound', notFound],
        ['webhookFanOut', this.webhooks.fanOut],
        ['webhookDelivery', this.webhooks.delivery],
        ['webhookRecovery', this.webhooks.recovery],
      ]),
      alarmAction,
    });

    if (props.customDomain) {
      const { disableDefaultEndpoint: _, ...domain } = props.customDomain;
      this.customDomains = new CustomDomains(this, 'CustomDomains', { api: this.api, stage, ...domain });
      new CfnOutput(this, 'SharedEdgeUrl', {
        value: `https://${SHARED_EDGE_LABEL}.${domain.domainName}${API_PREFIX}`,
        description: 'The shared edge: send X-Service-Workspace-Host',
      });
      new CfnOutput(this, 'WorkspaceUrl', {
        value: `https://<workspace>.${domain.domainName}${API_PREFIX}`,
        description: 'Each workspace host (spec part 1)',
      });
    }
    if (!props.customDomain?.disableDefaultEndpoint) {
      new CfnOutput(this, 'ApiUrl', { value: `${this.api.apiEndpoint}${API_PREFIX}`, description: 'Base URL of the API' });
    }
    // The top workspaces by requests and by capacity units: two Contributor Insights rules, their alarms.
    const alarms = props.tenants?.alarms ?? defaultTenantAlarms(Number(props.tenants?.requestsPerSecond ?? 1000));
    const topWorkspaces = new TenantInsights(this, 'TopWorkspaces', {
      requestsAlarmThreshold: alarms.requests,
      capacityUnitsAlarmThreshold: alarms.capacityUnits,
      alarmAction,
    });
    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      topWorkspaces: topWorkspaces.widgets,
      api: this.api,
      table: this.table,
      areas: new Map([...this.areas].map(([tag, area]) => [tag, area.functions])),
      webhooks: this.webhooks,
      knowledgeBank: this.knowledgeBankSearch,
    });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboard.dashboardName, description: 'The CloudWatch dashboard' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'For cxctl --table' });
    // What cxctl --stack reads, and what a redeploy onto this table needs (docs/operating.md).
    new CfnOutput(this, 'TableStreamArn', { value: this.table.tableStreamArn!, description: 'For -c tableStreamArn' });
    new CfnOutput(this, 'SigningSecretArn', { value: this.cursorSigningKey.secretArn, description: 'For -c signingSecretArn' });
    new CfnOutput(this, 'SearchIndexBucketName', { value: this.knowledgeBankSearch.bucket.bucketName, description: 'For cxctl' });
    new CfnOutput(this, 'SurveyExportBucketName', { value: this.surveyExports.bucket.bucketName, description: 'For cxctl' });

    // Last, so it finds every function: none changes before the table is known to have the layout this release reads.
    this.releaseGate = new ReleaseGate(this, 'ReleaseGate', { table: this.table });
    this.releaseGate.guard(this);

    acknowledgeNagFindings(this);
  }
}

/**
 * The one table (lib/platform/data/table.ts has its layout): on demand, point-in-time recovery,
 * stream, TTL, deletion protection, and retained when the stack is deleted.
 */
function createTable(scope: Construct): Table {
  const table = new Table(scope, 'Table', {
    partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    stream: StreamViewType.NEW_AND_OLD_IMAGES,
    timeToLiveAttribute: TABLE.ttlAttribute,
    encryption: TableEncryption.AWS_MANAGED,
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  table.addGlobalSecondaryIndex({
    indexName: TABLE.gsi1.name,
    partitionKey: { name: TABLE.gsi1.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE.gsi1.sortKey, type: AttributeType.STRING },
    projectionType: ProjectionType.INCLUDE,
    nonKeyAttributes: [...GSI1_NON_KEY_ATTRIBUTES],
  });
  return table;
}

/**
 * cdk-nag findings we accept, each with its reason (cdk-nag v3 acknowledges each finding by id).
 * cdk-nag walks the whole construct tree, nested stacks included, and an acknowledgement holds for
 * everything below the construct it is made on: this one covers `$default` here and every area's
 * routes in the nested stacks.
 */
function acknowledgeNagFindings(stack: Stack): void {
  const validations = Validations.of(stack);
  validations.acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'Every route authenticates the Developer key itself (lib/platform/http/middleware/authorize.ts); $default and /openapi.json are public by design.',
  });
  validations.acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The cursor signing key is not rotated automatically: it signs cursors (rotating invalidates those in flight) and derives the respondent-hash key of survey-response erasure (rotating makes erasure blind to earlier responses, docs/operating.md); rotate it by hand only if it leaks.',
  });
}
