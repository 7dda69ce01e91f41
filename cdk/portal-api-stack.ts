/**
 * The deployed service: the single table, one Lambda function per route of the manifest behind an
 * HTTP API, a `$default` route that answers unknown paths in the API's error envelope, and the
 * webhook delivery pipeline fed by the table's stream.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { API_PREFIX, NOT_FOUND_HANDLER, routes } from '../lib/manifest.ts';
import { TABLE } from '../lib/platform/data/table.ts';
import { HouseFunction } from './constructs/api-function.ts';
import { KnowledgeBankSearch } from './constructs/knowledge-bank-search.ts';
import { WebhookPipeline } from './constructs/webhook-pipeline.ts';

export interface PortalApiStackProps extends StackProps {
  /** Parent domain of workspace hosts (`<slug>.<domain>`). */
  workspaceDomain: string;
  /** Stage-wide throttle in front of the per-key limits. */
  throttle?: { rateLimit: number; burstLimit: number };
  /** An existing SNS topic the operational alarms notify (e.g. wired to on-call). */
  alarmTopicArn?: string;
  /** WEBHOOK_RETRY_DELAYS for the delivery function; the two-day default when absent. */
  webhookRetryDelays?: string;
  /** How often external links are checked (EventBridge `rate(…)` or `cron(…)`); daily when absent. */
  linkCheckSchedule?: string;
}

export class PortalApiStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  readonly functions = new Map<string, HouseFunction>();
  readonly webhooks: WebhookPipeline;
  readonly knowledgeBankSearch: KnowledgeBankSearch;

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
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
    });

    const alarmAction = props.alarmTopicArn ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn)) : undefined;
    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table: this.table,
      environment,
      retryDelays: props.webhookRetryDelays,
      alarmAction,
    });

    for (const route of routes) {
      const fn = new HouseFunction(this, route.operationId, {
        entry: route.handler,
        description: `${route.method} ${API_PREFIX}${route.path}`,
        environment,
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
      });
      if (route.data !== 'none') fn.useTable(this.table, route.data);
      if (route.needs?.includes('webhook-delivery-queue')) {
        fn.addEnvironment('WEBHOOK_DELIVERY_QUEUE_URL', this.webhooks.deliveryQueue.queueUrl);
        this.webhooks.deliveryQueue.grantSendMessages(fn);
      }
      this.functions.set(route.operationId, fn);
      this.api.addRoutes({
        path: `${API_PREFIX}${route.path}`,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn),
      });
    }

    this.knowledgeBankSearch = new KnowledgeBankSearch(this, 'KnowledgeBankSearch', {
      table: this.table,
      environment,
      routeFunctions: this.functions,
      linkCheckSchedule: props.linkCheckSchedule,
      alarmAction,
    });

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.apiEndpoint}${API_PREFIX}`, description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'For cxctl --table' });

    acknowledgeNagFindings(this);
  }
}

/** cdk-nag findings we accept, each with its reason (cdk-nag v3 acknowledges each finding by id). */
function acknowledgeNagFindings(stack: Stack): void {
  const validations = Validations.of(stack);
  validations.acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: 'AWSLambdaBasicExecutionRole only lets a function write its own CloudWatch logs.',
  });
  validations.acknowledge({
    id: 'AwsSolutions-IAM5[Resource::<TableCD117FA1.Arn>/index/*]',
    reason: 'Query on the table needs <table>/index/*; the table has exactly one index, gsi1, which the operator lookups use.',
  });
  validations.acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'Every route authenticates the Developer key itself (lib/platform/http/middleware/authorize.ts); $default and /openapi.json are public by design.',
  });
}
