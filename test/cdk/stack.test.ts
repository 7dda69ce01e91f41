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

  it('gives read-only routes no write on the table beyond their key rate-limit counter', () => {
    const readRoutes = routes.filter((r) => r.data === 'read');
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const route of readRoutes) {
      const roleRef = stack.resolve((stack.functions.get(route.operationId)!.role!.node.defaultChild as any).ref);
      const policies = resources('AWS::IAM::Policy').filter((p) =>
        (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(roleRef)),
      );
      const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
      const actions = statements.flatMap((s) => [s.Action].flat());
      expect(actions).not.toContain('dynamodb:PutItem');
      expect(actions).not.toContain('dynamodb:DeleteItem');
      expect(actions).not.toContain('dynamodb:Scan');
      const update = statements.find((s) => [s.Action].flat().includes('dynamodb:UpdateItem'));
      expect(update.Condition['ForAllValues:StringEquals']['dynamodb:Attributes']).toEqual(expect.arrayContaining(['rlWindow', 'rlCount']));
    }
  });

  it('gives the public OpenAPI route no table access at all', () => {
    const fn = stack.functions.get('getOpenApiDocument')!;
    expect(fn.node.tryFindChild('ServiceRole')?.node.tryFindChild('DefaultPolicy')).toBeUndefined();
  });

  it('logs API access and throttles the stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
    });
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
      const policy = fn.node.tryFindChild('ServiceRole')?.node.tryFindChild('DefaultPolicy') as any;
      const statements = policy ? (stack.resolve(policy.document).Statement as any[]) : [];
      const readsSecret = statements.some(
        (s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource) === JSON.stringify(secretRef),
      );
      const expected = cursorLists.includes(route.operationId);
      expect(readsSecret, route.operationId).toBe(expected);
      expect(env.CURSOR_SIGNING_SECRET_ARN !== undefined, route.operationId).toBe(expected);
    }
  });
});
