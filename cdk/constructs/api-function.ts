/**
 * A NodejsFunction with the house defaults (Node 24 on arm64, ESM bundle, JSON logs with a
 * retention, source maps) and the least-privilege table grant its route declares.
 */

import { resolve } from 'node:path';
import { type CfnResource, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, type NodejsFunctionProps, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { TABLE } from '../../lib/platform/data/table.ts';
import { authenticationActionsOf, type TableAction } from '../../lib/platform/route.ts';
import { USAGE_PARTITION_PREFIX } from '../../lib/platform/tenants/keys.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../../lib/platform/timeouts.ts';
import { HOUSE_BUNDLING, HOUSE_NODE_OPTIONS } from '../bundling.ts';
import { tracingEnabled } from '../context.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * What authentication may name in its UpdateItem: the rate-limit counter and `lastUsedAt` of a key
 * item (its map of windows, `rlWindows`, and the fixed-window `rlWindow`/`rlCount` it replaced, which
 * a key's first count removes) and the failed-authentication counter of a source address (which uses
 * `rlWindow`/`rlCount`), plus the primary key every request names. IAM's `dynamodb:Attributes` holds every
 * attribute a request names, in its key, item and every expression, conditions included
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html):
 * so no request naming `secretHash`, `permissions` or any content attribute passes, and the key
 * check may not even compare the secret in its condition (it compares after its read instead).
 */
const RATE_LIMIT_ATTRIBUTES = ['pk', 'sk', 'rlWindows', 'rlWindow', 'rlCount', 'lastUsedAt'];
/** What that UpdateItem may ask back: nothing, or the counter it changed; never the whole item. */
const RATE_LIMIT_RETURN_VALUES = ['NONE', 'UPDATED_NEW'];

export interface HouseFunctionProps extends Omit<NodejsFunctionProps, 'entry'> {
  /** Entry file relative to the repository root. */
  entry: string;
}

export class HouseFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: HouseFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Its own role instead of AWSLambdaBasicExecutionRole, whose log rights cover every log group of
    // the account: this one may write to its own log group and nowhere else.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    // `-c tracing=true` (cdk.json: false): X-Ray active tracing on every function. HTTP APIs have
    // no X-Ray support of their own, so a trace starts at the function.
    const tracing = tracingEnabled(scope.node);
    super(scope, id, {
      role,
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(DEFAULT_TIMEOUT_SECONDS),
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      projectRoot: ROOT,
      depsLockFilePath: resolve(ROOT, 'package-lock.json'),
      ...props,
      entry: resolve(ROOT, props.entry),
      environment: { NODE_OPTIONS: HOUSE_NODE_OPTIONS, ...props.environment },
      bundling: {
        ...HOUSE_BUNDLING,
        format: OutputFormat.ESM,
        mainFields: [...HOUSE_BUNDLING.mainFields],
        // esbuild's warnings and errors, not each bundle's sizes (several lines a function, hundreds a synth).
        logLevel: LogLevel.WARNING,
        ...props.bundling,
      },
    });
    // The source it runs, in the template: the sandbox finds each function's synthesized policy by it
    // (local/iam/function-policies.ts), the handler file the manifest names. CloudFormation ignores it.
    (this.node.defaultChild as CfnResource).addMetadata('cx:entry', props.entry);
    if (tracing) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which take no resource narrower than *.',
      });
    }
  }

  /**
   * Tell the function the table's name and grant exactly `actions` on it (`Query` also on its
   * index, named, not `index/*`). `authenticates`: the Developer key check's own calls, a
   * BatchGetItem of the workspace and the key, and an UpdateItem that IAM limits to the rate-limit
   * attributes and return values unless the route declares UpdateItem itself.
   */
  useTable(table: ITable, actions: readonly TableAction[], options: { authenticates?: boolean; writesUsage?: boolean } = {}): this {
    this.addEnvironment('TABLE_NAME', table.tableName);
    const itemActions = new Set(actions.map((a) => `dynamodb:${a}`));
    const authentication = authenticationActionsOf({ auth: options.authenticates ? 'developer-key' : 'none' });
    for (const action of authentication.filter((a) => a !== 'UpdateItem')) itemActions.add(`dynamodb:${action}`);
    if (itemActions.size > 0) {
      this.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: [...itemActions].sort(), resources: [table.tableArn] }));
    }
    if (actions.includes('Query')) {
      this.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:Query'],
          resources: [`${table.tableArn}/index/${TABLE.gsi1.name}`],
        }),
      );
    }
    // Usage per workspace (lib/platform/data/usage-writes.ts): ADDs to the usage partitions and no other
    // item (`dynamodb:LeadingKeys`, the partition keys a request names), nothing asked back. Every API
    // function writes what its instance buffered; a queue reader that records deliveries or export bytes too.
    if (options.authenticates || options.writesUsage) {
      this.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${USAGE_PARTITION_PREFIX}*`] },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
          },
        }),
      );
    }
    if (authentication.includes('UpdateItem') && !actions.includes('UpdateItem')) {
      this.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': RATE_LIMIT_ATTRIBUTES },
            // Absent when the request leaves ReturnValues at its default (NONE): hence IfExists.
            StringEqualsIfExists: { 'dynamodb:ReturnValues': RATE_LIMIT_RETURN_VALUES },
          },
        }),
      );
    }
    return this;
  }
}
