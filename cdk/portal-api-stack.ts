/**
 * The deployed service: the single table, one Lambda function per route of the manifest behind an
 * HTTP API, a `$default` route that answers unknown paths in the API's error envelope, and the
 * webhook delivery pipeline fed by the table's stream.
 */

import { join, resolve } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { API_PREFIX, NOT_FOUND_HANDLER, routes } from '../lib/manifest.ts';
import { TABLE } from '../lib/platform/data/table.ts';
import { acceptsCursor } from '../lib/platform/pagination.ts';
import { HouseFunction, type HouseFunctionProps } from './constructs/api-function.ts';
import { ServiceAlarms } from './constructs/service-alarms.ts';
import { WebhookPipeline } from './constructs/webhook-pipeline.ts';

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
}

export class PortalApiStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  readonly functions = new Map<string, HouseFunction>();
  readonly webhooks: WebhookPipeline;
  /** The HMAC key of list cursors (lib/platform/pagination.ts), generated at deploy time. */
  readonly cursorSigningKey: Secret;
  readonly alarms: ServiceAlarms;

  constructor(scope: Construct, id: string, props: PortalApiStackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
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
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE.gsi1.name,
      partitionKey: { name: TABLE.gsi1.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.gsi1.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...TABLE.gsi1.nonKeyAttributes],
    });

    const environment = {
      WORKSPACE_DOMAIN: props.workspaceDomain,
      POWERTOOLS_SERVICE_NAME: 'cx-portal-api',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    };

    const notFound = new HouseFunction(this, 'NotFound', { entry: NOT_FOUND_HANDLER, environment });
    this.api = new HttpApi(this, 'Api', {
      description: 'Customer Experience Portal API',
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('NotFoundIntegration', notFound),
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    new HttpStage(this, 'DefaultStage', {
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
      alarmAction,
    });

    // Generated by Secrets Manager, so the key appears in no template, environment or log; only the
    // functions of lists that take a cursor may read it (once per cold start).
    this.cursorSigningKey = new Secret(this, 'CursorSigningKey', {
      description: 'HMAC key that signs list cursors (pagination.nextCursor)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    for (const route of routes) {
      const fn = new HouseFunction(this, route.operationId, {
        entry: route.handler,
        description: `${route.method} ${API_PREFIX}${route.path}`,
        environment,
        ...(route.needs?.includes('api-reference-page') ? { bundling: apiReferencePageBundling() } : {}),
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
      });
      const authenticates = route.auth !== 'none';
      if (authenticates || route.table) fn.useTable(this.table, route.table ?? [], { authenticates });
      if (route.needs?.includes('webhook-delivery-queue')) {
        fn.addEnvironment('WEBHOOK_DELIVERY_QUEUE_URL', this.webhooks.deliveryQueue.queueUrl);
        this.webhooks.deliveryQueue.grantSendMessages(fn);
      }
      if (route.needs?.includes('api-reference-page')) {
        // The asset's root is the function's working directory in Lambda.
        fn.addEnvironment('API_REFERENCE_FILE', `/var/task/${API_REFERENCE_PAGE}`);
      }
      if (acceptsCursor(route)) {
        fn.addEnvironment('CURSOR_SIGNING_SECRET_ARN', this.cursorSigningKey.secretArn);
        this.cursorSigningKey.grantRead(fn);
      }
      this.functions.set(route.operationId, fn);
      this.api.addRoutes({
        path: `${API_PREFIX}${route.path}`,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn),
      });
    }

    this.alarms = new ServiceAlarms(this, 'Alarms', {
      api: this.api,
      table: this.table,
      functions: new Map<string, IFunction>([
        ...this.functions,
        ['notFound', notFound],
        ['webhookFanOut', this.webhooks.fanOut],
        ['webhookDelivery', this.webhooks.delivery],
      ]),
      alarmAction,
    });

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.apiEndpoint}${API_PREFIX}`, description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'For cxctl --table' });

    acknowledgeNagFindings(this);
  }
}

/**
 * The reference page is rendered at bundling time (Redocly CLI runs here, on the build machine)
 * into the function's asset, beside its bundle: the function ships one HTML file and no renderer.
 */
function apiReferencePageBundling(): HouseFunctionProps['bundling'] {
  const root = resolve(import.meta.dirname, '..');
  return {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_input: string, output: string) => [
        `"${join(root, 'node_modules/.bin/tsx')}" "${join(root, 'scripts/build-docs.ts')}" "${join(output, API_REFERENCE_PAGE)}"`,
      ],
    },
  };
}

const API_REFERENCE_PAGE = 'api-reference.html';

/** cdk-nag findings we accept, each with its reason (cdk-nag v3 acknowledges each finding by id). */
function acknowledgeNagFindings(stack: Stack): void {
  const validations = Validations.of(stack);
  validations.acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The cursor signing key is not rotated automatically: rotating it only invalidates cursors in flight (a sync restarts from the first page); rotate it by hand if it leaks.',
  });
  validations.acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'Every route authenticates the Developer key itself (lib/platform/http/middleware/authorize.ts); $default and /openapi.json are public by design.',
  });
}
