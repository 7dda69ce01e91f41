/**
 * One area of the API (the manifest's routes of one `tag`) as a nested stack: a function per route
 * with its own role, grants, log group and errors alarm, and its API route, integration and invoke
 * permission. The parent stack keeps what every area shares (the table, the HTTP API, the webhook
 * pipeline) and passes it in; CloudFormation's 500-resource limit then applies per area.
 */
import { join, resolve } from 'node:path';
import { Duration, NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { API_PREFIX, type RouteDefinition } from '../../lib/manifest.ts';
import { acceptsCursor } from '../../lib/platform/pagination.ts';
import { HouseFunction, type HouseFunctionProps } from './api-function.ts';
import { alarmOnFunctionFailures } from './service-alarms.ts';

/**
 * What one route costs in CloudFormation resources: function, role, policy, log group, errors
 * alarm, integration, invoke permission, route. The resource budget test holds the stacks to it.
 */
export const RESOURCES_PER_ROUTE = 8;

export interface AreaStackProps extends NestedStackProps {
  /** The area's routes (one `tag` of the manifest). */
  routes: readonly RouteDefinition[];
  table: ITable;
  api: IHttpApi;
  /** Where routes that declare `webhook-delivery-queue` send deliveries. */
  deliveryQueue: IQueue;
  /** The HMAC key of list cursors: readable only by the functions of lists that take a cursor. */
  cursorSigningKey: ISecret;
  /** Environment every function of the service gets. */
  environment: Record<string, string>;
  alarmAction?: IAlarmAction;
}

export class AreaStack extends NestedStack {
  readonly functions = new Map<string, HouseFunction>();

  constructor(scope: Construct, id: string, props: AreaStackProps) {
    super(scope, id, props);
    for (const route of props.routes) {
      const fn = new HouseFunction(this, route.operationId, {
        entry: route.handler,
        description: `${route.method} ${API_PREFIX}${route.path}`,
        environment: props.environment,
        ...(route.needs?.includes('api-reference-page') ? { bundling: apiReferencePageBundling() } : {}),
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
      });
      const authenticates = route.auth !== 'none';
      if (authenticates || route.table) fn.useTable(props.table, route.table ?? [], { authenticates });
      if (route.needs?.includes('webhook-delivery-queue')) {
        fn.addEnvironment('WEBHOOK_DELIVERY_QUEUE_URL', props.deliveryQueue.queueUrl);
        props.deliveryQueue.grantSendMessages(fn);
      }
      if (route.needs?.includes('api-reference-page')) {
        // The asset's root is the function's working directory in Lambda.
        fn.addEnvironment('API_REFERENCE_FILE', `/var/task/${API_REFERENCE_PAGE}`);
      }
      if (acceptsCursor(route) || route.needs?.includes('keyed-hash')) {
        fn.addEnvironment('CURSOR_SIGNING_SECRET_ARN', props.cursorSigningKey.secretArn);
        props.cursorSigningKey.grantRead(fn);
      }
      this.functions.set(route.operationId, fn);
      // Not `api.addRoutes`, which would create the route (and with it the integration and the
      // permission) under the API, in the parent stack.
      new HttpRoute(this, `${route.operationId}Route`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(`${API_PREFIX}${route.path}`, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn),
      });
      alarmOnFunctionFailures(this, route.operationId, fn, props.alarmAction);
    }
  }
}

const API_REFERENCE_PAGE = 'api-reference.html';

/**
 * The reference page is rendered at bundling time (Redocly CLI runs here, on the build machine)
 * into the function's asset, beside its bundle: the function ships one HTML file and no renderer.
 */
function apiReferencePageBundling(): HouseFunctionProps['bundling'] {
  const root = resolve(import.meta.dirname, '../..');
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
