/** The CDK app: every manifest route becomes a function and an API route, with least-privilege grants. */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { API_PREFIX, routes } from '../../lib/manifest.ts';
import { acceptsCursor } from '../../lib/platform/pagination.ts';

let template: Template;
let stack: PortalApiStack;

beforeAll(() => {
  const app = new App();
  stack = new PortalApiStack(app, 'TestStack', { workspaceDomain: 'portal.test' });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // Synthesis fails on any cdk-nag finding that is not acknowledged with a reason.
  app.synth();
  template = Template.fromStack(stack);
});

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (type: string) => Object.values(template.findResources(type)) as Resource[];

describe('PortalApiStack', () => {
  it('has one Node 24 arm64 function and one API route per manifest route', () => {
    const routeKeys = resources('AWS::ApiGatewayV2::Route').map((r) => r.Properties.RouteKey);
    for (const route of routes) {
      expect(routeKeys).toContain(`${route.method} ${API_PREFIX}${route.path}`);
      expect(stack.functions.get(route.operationId), route.operationId).toBeDefined();
    }
    expect(routeKeys).toContain('$default');
    const functions = resources('AWS::Lambda::Function');
    // Plus the not-found function and the webhook pipeline's fan-out and delivery functions.
    expect(functions).toHaveLength(routes.length + 3);
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
  function statementsOf(fn: { role?: { node: { defaultChild?: unknown } } }): any[] {
    const roleRef = stack.resolve((fn.role!.node.defaultChild as any).ref);
    return resources('AWS::IAM::Policy')
      .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(roleRef)))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
  }
  const actionsOf = (statements: any[]) => statements.flatMap((s) => [s.Action].flat() as string[]);
  const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];

  it('gives read-only routes no write on the table beyond their key rate-limit counter', () => {
    const readRoutes = routes.filter((r) => r.auth !== 'none' && !r.table?.some((a) => WRITES.includes(a)));
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const route of readRoutes) {
      const statements = statementsOf(stack.functions.get(route.operationId)!);
      const actions = actionsOf(statements);
      expect(actions).not.toContain('dynamodb:PutItem');
      expect(actions).not.toContain('dynamodb:DeleteItem');
      expect(actions).not.toContain('dynamodb:Scan');
      const updates = statements.filter((s) => [s.Action].flat().includes('dynamodb:UpdateItem'));
      expect(updates).toHaveLength(1);
      expect(updates[0].Condition['ForAllValues:StringEquals']['dynamodb:Attributes']).toEqual(
        expect.arrayContaining(['rlWindow', 'rlCount']),
      );
    }
  });

  it('grants each route exactly the DynamoDB actions it declares (createIdea may delete nothing)', () => {
    for (const route of routes) {
      const declared = new Set((route.table ?? []).map((a) => `dynamodb:${a}`));
      if (route.auth !== 'none') declared.add('dynamodb:GetItem').add('dynamodb:UpdateItem');
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
      const logGroup = stack.resolve((fn as any).logGroup.logGroupArn);
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
      const watched = JSON.stringify(errorAlarms);
      for (const route of routes) {
        expect(watched).toContain(JSON.stringify(stack.resolve(stack.functions.get(route.operationId)!.functionName)));
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
    const functions = Object.values(Template.fromStack(traced).findResources('AWS::Lambda::Function')) as Resource[];
    expect(functions.length).toBe(routes.length + 3);
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it('fails synthesis on a cdk-nag finding nobody acknowledged (the check is live)', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const bad = new Stack(app, 'Bad');
    new Table(bad, 'NoRecovery', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow();
  });
});

describe('PortalApiStack: list cursors', () => {
  it('lets exactly the functions of cursor lists read the generated signing key, and tells them where it is', () => {
    const cursorLists = routes.filter(acceptsCursor).map((r) => r.operationId);
    expect(cursorLists).toEqual(expect.arrayContaining(['listIdeas', 'listWebhookDeliveries']));
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
    const secretRef = stack.resolve(stack.cursorSigningKey.secretArn);
    for (const route of routes) {
      const fn = stack.functions.get(route.operationId)!;
      const env = stack.resolve((fn.node.defaultChild as any).environment)?.variables ?? {};
      const roleRef = stack.resolve((fn.role!.node.defaultChild as any).ref);
      const statements = resources('AWS::IAM::Policy')
        .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(roleRef)))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
      const readsSecret = statements.some(
        (s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource) === JSON.stringify(secretRef),
      );
      const expected = cursorLists.includes(route.operationId);
      expect(readsSecret, route.operationId).toBe(expected);
      expect(env.CURSOR_SIGNING_SECRET_ARN !== undefined, route.operationId).toBe(expected);
    }
  });
});
