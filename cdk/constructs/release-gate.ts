/**
 * The release gate (lib/platform/data/release-gate.ts): a custom resource that reads the table's
 * migration records (`TABLE#MIGRATIONS`) and fails the deploy, with the command to run, when a
 * migration this release requires has not finished there. Every function of the stack and every nested
 * stack waits for it, so a refused update changes no function: CloudFormation rolls back what it had
 * changed (policies, queues) and the release before keeps serving. Its properties change only with the
 * list of required migrations, so it runs once per release that requires a new one (and on the first
 * deploy), never on a deploy that requires nothing new.
 */
import { CustomResource, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';
import { keys } from '../../lib/platform/data/keys.ts';
import { REQUIRED_MIGRATIONS } from '../../lib/platform/data/release-gate.ts';
import { HouseFunction } from './api-function.ts';

export class ReleaseGate extends Construct {
  readonly function: HouseFunction;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: { table: ITable }) {
    super(scope, id);
    const stack = Stack.of(this);
    this.function = new HouseFunction(this, 'Check', {
      entry: 'functions/stack/release-gate.ts',
      description: 'Stack: refuses a deploy onto a table that has not finished a layout migration this release requires',
      timeout: Duration.minutes(1),
      environment: { TABLE_NAME: props.table.tableName },
    });
    // The migration records and nothing else; a Scan of one item tells an empty table (nothing to migrate).
    this.function.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem', 'dynamodb:Query'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [keys.tableMigrationsPk] } },
      }),
    );
    this.function.addToRolePolicy(
      new PolicyStatement({ effect: Effect.ALLOW, actions: ['dynamodb:Scan'], resources: [props.table.tableArn] }),
    );
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: this.function.functionArn,
      resourceType: 'Custom::ReleaseGate',
      properties: {
        RequiredMigrations: REQUIRED_MIGRATIONS.map(({ id, title }) => ({ id, title })),
        MigrateCommand: `npx cxctl --stack ${stack.stackName} migrate`,
      },
    });
  }

  /** Makes every function of `stack` (but the gate's own) and every nested stack of it wait for the gate. */
  guard(stack: Stack): void {
    const waits = (construct: IConstruct) =>
      (construct instanceof HouseFunction && Stack.of(construct) === stack && construct !== this.function) ||
      (construct instanceof NestedStack && construct.nestedStackParent === stack);
    for (const construct of stack.node.findAll().filter(waits)) construct.node.addDependency(this.resource);
  }
}
