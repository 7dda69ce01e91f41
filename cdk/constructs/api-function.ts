/**
 * A NodejsFunction with the house defaults (Node 24 on arm64, ESM bundle, JSON logs with a
 * retention, source maps) and the least-privilege table grant its route declares.
 */

import { resolve } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type NodejsFunctionProps, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

const ROOT = resolve(import.meta.dirname, '../..');

/** Reads every data route needs; writes are added for `write` routes. */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** What a read-only route may change: only its key's rate-limit counter (and the key's own key attributes). */
const RATE_LIMIT_ATTRIBUTES = ['pk', 'sk', 'rlWindow', 'rlCount', 'lastUsedAt'];

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
    super(scope, id, {
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(10),
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      projectRoot: ROOT,
      depsLockFilePath: resolve(ROOT, 'package-lock.json'),
      ...props,
      entry: resolve(ROOT, props.entry),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        // middy and Powertools are ESM; a few dependencies still call require().
        banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        ...props.bundling,
      },
    });
  }

  /** Grant exactly what `access` needs on the table, and tell the function its name. */
  useTable(table: ITable, access: 'read' | 'write'): this {
    this.addEnvironment('TABLE_NAME', table.tableName);
    const resources = [table.tableArn, `${table.tableArn}/index/*`];
    this.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: READ_ACTIONS, resources }));
    if (access === 'write') {
      this.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: WRITE_ACTIONS, resources: [table.tableArn] }));
    } else {
      // Every authenticated request counts itself on its key item; a read-only route may do that and nothing more.
      this.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': RATE_LIMIT_ATTRIBUTES } },
        }),
      );
    }
    return this;
  }
}
