/**
 * The CDK app: every manifest route becomes a function and an API route, with least-privilege
 * grants, in its area's nested stack; every stack stays within a resource budget.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES_PER_ROUTE } from '../../cdk/constructs/area-stack.ts';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { routes } from '../../lib/manifest.ts';
import { REQUIRED_MIGRATIONS } from '../../lib/platform/data/release-gate.ts';
import { acceptsCursor, authenticatesItself, authenticationActionsOf, fullPathOf, stackOf } from '../../lib/platform/route.ts';
import { USAGE_PARTITION_PREFIX } from '../../lib/platform/tenants/keys.ts';

let template: Template;
let stack: PortalApiStack;
/** The parent's template and each area's nested template. */
let templates: Map<Stack, Template>;

beforeAll(() => {
  const app = new App();
  stack = new PortalApiStack(app, 'TestStack', { workspaceDomain: 'portal.test' });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // Synthesis fails on any cdk-nag finding that is not acknowledged with a reason.
  app.synth();
  template = Template.fromStack(stack);
  templates = new Map<Stack, Template>([
    [stack, template],
    ...[...stack.areas.values()].map((area) => [area, Template.fromStack(area)] as const),
  ]);
  // Bundling 129 functions (a test below reads one's files) took 298 s with the rest of the suite
  // running beside it, at the edge of the 300 s the hook had; a nested stack bundles only with its parent.
}, 900_000);

type Resource = { Type: string; Properties: Record<string, any> };
/** Resources of `type` in every template: the parent's and the areas' nested ones. */
const resources = (type: string) => [...templates.values()].flatMap((t) => Object.values(t.findResources(type)) as Resource[]);
/** What the parent passes into the nested stack that holds `construct` for `value` (a parameter), else `value`. */
function passedIn(construct: Construct, value: unknown): unknown {
  const holder = Stack.of(construct);
  const parameter = (value as { Ref?: string }).Ref;
  if (holder === stack || !parameter) return value;
  const logicalId = stack.resolve((holder as NestedStack).nestedStackResource!.logicalId);
  return template.toJSON().Resources[logicalId].Properties.Parameters?.[parameter] ?? value;
}
/** Resources of `type` in the template of the stack that holds `construct`. */
const resourcesBeside = (construct: Construct, type: string) =>
  Object.values(templates.get(Stack.of(construct))!.findResources(type)) as Resource[];

describe('PortalApiStack', () => {
  it('has one Node 24 arm64 function and one API route per manifest route', () => {
    const routeKeys = resources('AWS::ApiGatewayV2::Route').map((r) => r.Properties.RouteKey);
    for (const route of routes) {
      expect(routeKeys).toContain(`${route.method} ${fullPathOf(route)}`);
      expect(stack.functions.get(route.operationId), route.operationId).toBeDefined();
    }
    expect(routeKeys).toContain('$default');
    const functions = resources('AWS::Lambda::Function');
    // Plus the not-found function, the webhook pipeline's fan-out, delivery and recovery functions,
    // the bucket emptier and the release gate (the knowledge bank's builder, link checker and
    // scheduler are in their nested stack).
    expect(functions).toHaveLength(routes.length + 6);
    for (const fn of functions) {
      expect(fn.Properties.Runtime).toBe('nodejs24.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
    }
  });

  it('has the single table: on demand, point-in-time recovery, stream with both images, TTL, gsi1', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'gsi1' })],
    });
  });

  it('projects into gsi1 only what its queries read: no secret or personal attribute', () => {
    const [table] = resources('AWS::DynamoDB::Table');
    const [gsi1] = table!.Properties.GlobalSecondaryIndexes;
    expect(gsi1.Projection.ProjectionType).toBe('INCLUDE');
    expect(gsi1.Projection.NonKeyAttributes).toContain('workspace');
    for (const name of ['secretHash', 'secret', 'tokenHint', 'submitter', 'submitterHash', 'customerContext', 'permissions']) {
      expect(gsi1.Projection.NonKeyAttributes).not.toContain(name);
    }
    expect(gsi1.Projection.NonKeyAttributes.filter((n: string) => /secret|hash|submitter|customer|email|phone|token/i.test(n))).toEqual([]);
  });

  /** Every statement of the IAM policies attached to a function's role. */
  function statementsOf(fn: Construct & { role?: { node: { defaultChild?: unknown } } }): any[] {
    const roleRef = Stack.of(fn).resolve((fn.role!.node.defaultChild as any).ref);
    return resourcesBeside(fn, 'AWS::IAM::Policy')
      .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(roleRef)))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
  }
  const actionsOf = (statements: any[]) => statements.flatMap((s) => [s.Action].flat() as string[]);
  const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];

  it('gives read-only routes no write on the table beyond their key rate-limit counter and their usage', () => {
    const readRoutes = routes.filter((r) => authenticatesItself(r) && !r.table?.some((a) => WRITES.includes(a)));
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const route of readRoutes) {
      const statements = statementsOf(stack.functions.get(route.operationId)!);
      const actions = actionsOf(statements);
      expect(actions).not.toContain('dynamodb:PutItem');
      expect(actions).not.toContain('dynamodb:DeleteItem');
      expect(actions).not.toContain('dynamodb:Scan');
      const allUpdates = statements.filter((s) => [s.Action].flat().includes('dynamodb:UpdateItem'));
      // Beside the counter: the usage its instance buffered, to the usage partitions only, nothing asked back.
      const usage = allUpdates.filter((s) => s.Condition['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']);
      expect(usage).toHaveLength(1);
      expect(usage[0].Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual([`${USAGE_PARTITION_PREFIX}*`]);
      expect(usage[0].Condition.StringEqualsIfExists['dynamodb:ReturnValues']).toEqual(['NONE']);
      const updates = allUpdates.filter((s) => !usage.includes(s));
      expect(updates).toHaveLength(1);
      expect(updates[0].Condition['ForAllValues:StringEquals']['dynamodb:Attributes']).toEqual(
        expect.arrayContaining(['rlWindows', 'rlWindow', 'rlCount']),
      );
      expect(updates[0].Condition['ForAllValues:StringEquals']['dynamodb:Attributes']).not.toContain('secretHash');
      expect(updates[0].Condition.StringEqualsIfExists['dynamodb:ReturnValues']).toEqual(['NONE', 'UPDATED_NEW']);
    }
  });

  it('grants each route exactly the DynamoDB actions it declares (createIdea may delete nothing)', () => {
    for (const route of routes) {
      const declared = new Set((route.table ?? []).map((a) => `dynamodb:${a}`));
      for (const action of authenticationActionsOf(route)) declared.add(`dynamodb:${action}`);
      const granted = new Set(actionsOf(statementsOf(stack.functions.get(route.operationId)!)).filter((a) => a.startsWith('dynamodb:')));
      expect([...granted].sort(), route.operationId).toEqual([...declared].sort());
    }
    const createIdea = actionsOf(statementsOf(stack.functions.get('createIdea')!));
    expect(createIdea).not.toContain('dynamodb:DeleteItem');
    expect(createIdea).not.toContain('dynamodb:BatchWriteItem');
  });

  it('queries the index by name only for routes that declare Query, never index/*', () => {
    const all = resources('AWS::IAM::Policy').flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
    expect(JSON.stringify(all)).not.toContain('/index/*');
  });

  it('gives the public OpenAPI route no table access at all', () => {
    const fn = stack.functions.get('getOpenApiDocument')!;
    expect(actionsOf(statementsOf(fn)).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    expect(fn.node.tryFindChild('ServiceRole')).toBeUndefined();
  });

  it('lets every function write its own log group and no other, without AWSLambdaBasicExecutionRole', () => {
    const roles = resources('AWS::IAM::Role').filter((r) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    );
    for (const role of roles) expect(JSON.stringify(role.Properties.ManagedPolicyArns ?? [])).not.toContain('AWSLambdaBasicExecutionRole');
    for (const [operationId, fn] of stack.functions) {
      const logGroup = Stack.of(fn).resolve((fn as any).logGroup.logGroupArn);
      const logStatements = statementsOf(fn).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
      expect(logStatements.length, operationId).toBeGreaterThan(0);
      for (const statement of logStatements) expect(JSON.stringify(statement.Resource), operationId).toBe(JSON.stringify(logGroup));
    }
  });

  it('logs API access and throttles the stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
    });
  });

  it('writes one JSON access-log line with request id, route key, status, latencies and integration error', () => {
    const [stage] = resources('AWS::ApiGatewayV2::Stage');
    const format = JSON.parse(stage!.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
      integrationErrorMessage: '$context.integrationErrorMessage',
    });
  });

  describe('alarms', () => {
    const alarms = () => resources('AWS::CloudWatch::Alarm');
    const metricsOf = (alarm: Resource) => [
      alarm.Properties,
      ...(alarm.Properties.Metrics ?? []).map((m: any) => (m.MetricStat ? { ...m.MetricStat.Metric, Stat: m.MetricStat.Stat } : {})),
    ];
    const find = (metricName: string) => alarms().filter((a) => metricsOf(a).some((m: any) => m.MetricName === metricName));

    it('watch the API 5xx rate and p99 latency', () => {
      const rate = find('5xx');
      expect(rate).toHaveLength(1);
      expect(JSON.stringify(rate[0]!.Properties.Metrics)).toContain('Count');
      expect(find('Latency').map((a) => a.Properties.ExtendedStatistic)).toEqual(['p99']);
    });

    it('watch every function for errors and throttles', () => {
      const errorAlarms = find('Errors');
      const throttleAlarms = find('Throttles');
      // Every route's function, the not-found function and the two webhook pipeline functions.
      expect(errorAlarms.length).toBeGreaterThanOrEqual(routes.length + 3);
      expect(throttleAlarms.length).toBe(errorAlarms.length);
      // Each route's alarm sits beside its function, in the area's nested stack.
      for (const route of routes) {
        const fn = stack.functions.get(route.operationId)!;
        const watched = JSON.stringify(resourcesBeside(fn, 'AWS::CloudWatch::Alarm'));
        expect(watched, route.operationId).toContain(JSON.stringify(Stack.of(fn).resolve(fn.functionName)));
      }
    });

    it('watch the table for throttled requests and system errors', () => {
      expect(find('ThrottledRequests').length).toBeGreaterThanOrEqual(1);
      expect(find('SystemErrors').length).toBeGreaterThanOrEqual(1);
    });
  });

  it('traces nothing unless the tracing context flag is set', () => {
    for (const fn of resources('AWS::Lambda::Function')) expect(fn.Properties.TracingConfig?.Mode).not.toBe('Active');
  });

  it('turns on X-Ray active tracing for every function with -c tracing=true, cdk-nag still clean', () => {
    const app = new App({ context: { tracing: 'true', 'aws:cdk:bundling-stacks': [] } });
    const traced = new PortalApiStack(app, 'Traced', { workspaceDomain: 'portal.test' });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    app.synth();
    const functions = [traced, ...traced.areas.values()].flatMap(
      (s) => Object.values(Template.fromStack(s).findResources('AWS::Lambda::Function')) as Resource[],
    );
    // Besides the routes: $default, the webhook fan-out, delivery and recovery, the bucket emptier and the release gate.
    expect(functions.length).toBe(routes.length + 6);
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it('fails synthesis on a cdk-nag finding nobody acknowledged (the check is live)', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const bad = new Stack(app, 'Bad');
    new Table(bad, 'NoRecovery', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow();
  });

  it('fails synthesis on a cdk-nag finding inside a nested stack, even under an acknowledged parent', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const parent = new Stack(app, 'Parent');
    // An acknowledgement of another rule on the parent does not hide the nested finding.
    Validations.of(parent).acknowledge({ id: 'AwsSolutions-APIG4', reason: 'test' });
    new Table(new NestedStack(parent, 'Area'), 'NoRecovery', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
  });

  describe('resource budget', () => {
    /**
     * CloudFormation refuses a stack of more than 500 resources. Every stack must stay at or under
     * this budget, and every area stack at half of it, so that an area may double its operations
     * and still deploy with room to spare.
     */
    const BUDGET = 400;
    const count = (t: Template) => Object.keys(t.toJSON().Resources).length;

    it('puts each area (manifest tag, or a part named by deployedIn) in its own nested stack with only its own routes', () => {
      const tags = new Set(routes.map(stackOf));
      expect([...stack.areas.keys()].sort()).toEqual([...tags].sort());
      for (const [tag, area] of stack.areas) {
        const areaRoutes = routes.filter((r) => stackOf(r) === tag);
        const routeKeys = Object.values(templates.get(area)!.findResources('AWS::ApiGatewayV2::Route')).map(
          (r: any) => r.Properties.RouteKey,
        );
        expect(routeKeys.sort(), tag).toEqual(areaRoutes.map((r) => `${r.method} ${fullPathOf(r)}`).sort());
        for (const route of areaRoutes) expect(Stack.of(stack.functions.get(route.operationId)!), route.operationId).toBe(area);
      }
      // The parent keeps only the $default route.
      expect(Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r: any) => r.Properties.RouteKey)).toEqual([
        '$default',
      ]);
    });

    it(`keeps the parent under ${BUDGET} resources`, () => {
      expect(count(template)).toBeLessThanOrEqual(BUDGET);
    });

    it(`keeps each area stack under half of ${BUDGET}, so an area can double`, () => {
      for (const [tag, area] of stack.areas) {
        const resourceCount = count(templates.get(area)!);
        expect(resourceCount, tag).toBe(routes.filter((r) => stackOf(r) === tag).length * RESOURCES_PER_ROUTE);
        expect(2 * resourceCount, tag).toBeLessThanOrEqual(BUDGET);
      }
    });
  });
});

describe('PortalApiStack: list cursors', () => {
  it('lets exactly the functions of cursor lists and keyed hashes read the generated signing key, and tells them where it is', () => {
    const cursorLists = routes.filter(acceptsCursor).map((r) => r.operationId);
    expect(cursorLists).toEqual(expect.arrayContaining(['listIdeas', 'listWebhookDeliveries']));
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
    const secretRef = JSON.stringify(stack.resolve(stack.cursorSigningKey.secretArn));
    for (const route of routes) {
      const fn = stack.functions.get(route.operationId)!;
      const holder = Stack.of(fn);
      const env = holder.resolve((fn.node.defaultChild as any).environment)?.variables ?? {};
      const roleRef = JSON.stringify(holder.resolve((fn.role!.node.defaultChild as any).ref));
      const statements = resourcesBeside(fn, 'AWS::IAM::Policy')
        .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === roleRef))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
      // The function sits in its area's nested stack: the secret's ARN comes in as a parameter.
      const readsSecret = statements.some(
        (s) =>
          [s.Action].flat().includes('secretsmanager:GetSecretValue') &&
          [s.Resource].flat().some((r) => JSON.stringify(passedIn(fn, r)) === secretRef),
      );
      // Keyed hashes of respondent identifiers derive their key from the same secret (lib/platform/keyed-hash.ts).
      const expected = cursorLists.includes(route.operationId) || route.needs?.includes('keyed-hash') === true;
      expect(readsSecret, route.operationId).toBe(expected);
      expect(env.CURSOR_SIGNING_SECRET_ARN !== undefined, route.operationId).toBe(expected);
    }
  });
});

describe('PortalApiStack: files rendered at bundling', () => {
  it('ships GET /openapi.json the document as a file beside its bundle, never the generator', () => {
    const fn = stack.functions.get('getOpenApiDocument')!;
    const resource = (Stack.of(fn).resolve((fn.node.defaultChild as CfnFunction).logicalId) as string) ?? '';
    const properties = templates.get(Stack.of(fn))!.toJSON().Resources[resource].Properties;
    expect(properties.Environment.Variables.OPENAPI_DOCUMENT_FILE).toBe('/var/task/openapi.json');
    // The staged asset is the directory Lambda unpacks into /var/task.
    const asset = join((fn.node.root as App).outdir, `asset.${properties.Code.S3Key.replace(/\.zip$/, '')}`);
    const document = JSON.parse(readFileSync(join(asset, 'openapi.json'), 'utf8'));
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toContain('/ideas');
    // The generator and the manifest's schemas stay on the build machine (253 KB of bundle before).
    const bundle = readFileSync(join(asset, 'index.mjs'), 'utf8');
    expect(bundle).not.toContain('securitySchemes');
    expect(bundle.length).toBeLessThan(100_000);
  });
});

describe('PortalApiStack: the release gate', () => {
  const gateId = () => stack.resolve((stack.releaseGate.resource.node.defaultChild as CfnElement).logicalId) as string;

  it('asks the table for the migrations this release requires, with the command that runs them on this stack', () => {
    const gates = template.findResources('Custom::ReleaseGate');
    expect(Object.keys(gates)).toEqual([gateId()]);
    const { Properties } = gates[gateId()] as Resource;
    expect(Properties.RequiredMigrations).toEqual(REQUIRED_MIGRATIONS.map(({ id, title }) => ({ id, title })));
    expect(Properties.RequiredMigrations.map((m: { id: string }) => m.id)).toContain('002-survey-response-shards');
    expect(Properties.MigrateCommand).toBe('npx cxctl --stack TestStack migrate');
  });

  it('holds back every function and every nested stack until it has passed, so a refused deploy changes no function', () => {
    const gateFunction = stack.resolve((stack.releaseGate.function.node.defaultChild as CfnElement).logicalId);
    const parent = template.toJSON().Resources as Record<string, { Type: string; DependsOn?: string[] }>;
    const waiting = Object.entries(parent).filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && id !== gateFunction);
    expect(waiting.length).toBeGreaterThan(3);
    for (const [id, resource] of waiting) expect(resource.DependsOn ?? [], id).toContain(gateId());
    const nested = Object.entries(parent).filter(([, r]) => r.Type === 'AWS::CloudFormation::Stack');
    expect(nested.length).toBe(stack.areas.size + 2);
    for (const [id, resource] of nested) expect(resource.DependsOn ?? [], id).toContain(gateId());
    // The nested stacks' functions change only inside their stack, which waits as a whole.
    for (const area of stack.areas.values()) expect(Object.keys(Template.fromStack(area).findResources('Custom::ReleaseGate'))).toEqual([]);
  });

  it('may read and write the migration records and scan for one item, nothing else of the table', () => {
    const role = stack.resolve((stack.releaseGate.function.role!.node.defaultChild as CfnElement).logicalId);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      (p as Resource).Properties.Roles.some((r: { Ref: string }) => r.Ref === role),
    ) as Resource[];
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement) as {
      Action: string | string[];
      Condition?: Record<string, Record<string, string[]>>;
    }[];
    const dynamodb = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    expect(dynamodb.map((s) => [s.Action].flat().sort())).toEqual([['dynamodb:PutItem', 'dynamodb:Query'], ['dynamodb:Scan']]);
    expect(dynamodb[0]!.Condition).toEqual({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['TABLE#MIGRATIONS'] } });
  });
});
