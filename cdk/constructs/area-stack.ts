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
import type { RouteDefinition } from '../../lib/manifest.ts';
import { acceptsCursor, authenticatesItself, fullPathOf } from '../../lib/platform/route.ts';
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
  /** Where routes that declare `webhook-recovery-queue` start a recovery. */
  recoveryQueue: IQueue;
  /** The HMAC key of list cursors: readable only by the functions of lists that take a cursor. */
  cursorSigningKey: ISecret;
  /** Environment every function of the service gets. */
  environment: Record<string, string>;
  /** The API's own base URL, for routes that call the API (`needs: ['api-base-url']`, the MCP server). */
  apiBaseUrl: string;
  alarmAction?: IAlarmAction;
}

export class AreaStack extends NestedStack {
  readonly functions = new Map<string, HouseFunction>();

  constructor(scope: Construct, id: string, props: AreaStackProps) {
    super(scope, id, props);
    for (const route of props.routes) {
      const fn = new HouseFunction(this, route.operationId, {
        entry: route.handler,
        description: `${route.method} ${fullPathOf(route)}`,
        environment: props.environment,
        ...(builtFilesOf(route).length > 0 ? { bundling: builtFilesBundling(builtFilesOf(route)) } : {}),
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
      });
      // A route whose key the API's own routes check (auth `forwarded`) and that declares no table
      // action gets no grant and no table name: the MCP server's function holds no table permission.
      const authenticates = authenticatesItself(route);
      if (authenticates || route.table) fn.useTable(props.table, route.table ?? [], { authenticates });
      if (route.needs?.includes('api-base-url')) fn.addEnvironment('API_BASE_URL', props.apiBaseUrl);
      if (route.needs?.includes('webhook-delivery-queue')) {
        fn.addEnvironment('WEBHOOK_DELIVERY_QUEUE_URL', props.deliveryQueue.queueUrl);
        props.deliveryQueue.grantSendMessages(fn);
      }
      if (route.needs?.includes('webhook-recovery-queue')) {
        fn.addEnvironment('WEBHOOK_RECOVERY_QUEUE_URL', props.recoveryQueue.queueUrl);
        props.recoveryQueue.grantSendMessages(fn);
      }
      // The asset's root is the function's working directory in Lambda.
      for (const built of builtFilesOf(route)) fn.addEnvironment(built.variable, `/var/task/${built.file}`);
      if (acceptsCursor(route) || route.needs?.includes('keyed-hash')) {
        fn.addEnvironment('CURSOR_SIGNING_SECRET_ARN', props.cursorSigningKey.secretArn);
        props.cursorSigningKey.grantRead(fn);
      }
      this.functions.set(route.operationId, fn);
      // Not `api.addRoutes`, which would create the route (and with it the integration and the
      // permission) under the API, in the parent stack.
      new HttpRoute(this, `${route.operationId}Route`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(fullPathOf(route), HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn),
      });
      alarmOnFunctionFailures(this, route.operationId, fn, props.alarmAction);
    }
  }
}

/**
 * Files rendered at bundling time (on the build machine) into a function's asset, beside its
 * bundle, so the function ships a file and no renderer: the reference page (Redocly CLI) and the
 * OpenAPI document (every schema and the generator, otherwise the largest bundle of the API).
 * The sandbox renders the same files at start (local/sandbox.ts).
 */
const BUILT_FILES = {
  'api-reference-page': { file: 'api-reference.html', variable: 'API_REFERENCE_FILE', script: 'scripts/build-docs.ts', flags: '' },
  'openapi-document': { file: 'openapi.json', variable: 'OPENAPI_DOCUMENT_FILE', script: 'scripts/write-openapi.ts', flags: ' --compact' },
} as const;
type BuiltFile = (typeof BUILT_FILES)[keyof typeof BUILT_FILES];

const builtFilesOf = (route: RouteDefinition): BuiltFile[] =>
  (route.needs ?? []).flatMap((need) => (need in BUILT_FILES ? [BUILT_FILES[need as keyof typeof BUILT_FILES]] : []));

function builtFilesBundling(files: BuiltFile[]): HouseFunctionProps['bundling'] {
  const root = resolve(import.meta.dirname, '../..');
  return {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_input: string, output: string) =>
        files.map(
          ({ script, file, flags }) => `"${join(root, 'node_modules/.bin/tsx')}" "${join(root, script)}" "${join(output, file)}"${flags}`,
        ),
    },
  };
}
