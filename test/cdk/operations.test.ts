/**
 * What an operator deploys beside the API: the spec's workspace hosts on their own domain (from
 * context), and one dashboard. Synthesised with cdk-nag, so a finding fails here too; bundling is
 * skipped (`aws:cdk:bundling-stacks`), since nothing here looks into a function's code.
 */
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack, type PortalApiStackProps } from '../../cdk/portal-api-stack.ts';
import { routes } from '../../lib/manifest.ts';
import { stackOf } from '../../lib/platform/route.ts';
import { USAGE_LOG } from '../../lib/platform/tenants/usage.ts';

function synth(props: Partial<PortalApiStackProps>): { stack: PortalApiStack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new PortalApiStack(app, 'OpsStack', { workspaceDomain: 'portal.test', ...props });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
  return { stack, template: Template.fromStack(stack) };
}

describe('custom domains', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = synth({ customDomain: { domainName: 'portal.test', hostedZoneId: 'Z0123456789ABC', disableDefaultEndpoint: true } }));
  });

  it('serves the shared edge api.<domain> and every workspace host *.<domain>, regional, TLS 1.2', () => {
    const domains = Object.values(template.findResources('AWS::ApiGatewayV2::DomainName')).map((r) => r.Properties);
    expect(domains.map((d) => d.DomainName).sort()).toEqual(['*.portal.test', 'api.portal.test']);
    for (const domain of domains) {
      expect(domain.DomainNameConfigurations).toEqual([
        expect.objectContaining({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2', CertificateArn: expect.anything() }),
      ]);
    }
    template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 2);
    template.allResourcesProperties('AWS::ApiGatewayV2::ApiMapping', { Stage: Match.anyValue(), ApiMappingKey: Match.absent() });
  });

  it('issues one DNS-validated certificate for *.<domain> in the given zone', () => {
    template.resourceCountIs('AWS::CertificateManager::Certificate', 1);
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: '*.portal.test',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: '*.portal.test', HostedZoneId: 'Z0123456789ABC' }],
    });
  });

  it('points A and AAAA alias records of both hosts at their API Gateway domains', () => {
    const records = Object.values(template.findResources('AWS::Route53::RecordSet')).map((r) => r.Properties);
    const names = records.map((r) => `${r.Type} ${r.Name}`).sort();
    expect(names).toEqual(['A *.portal.test.', 'A api.portal.test.', 'AAAA *.portal.test.', 'AAAA api.portal.test.']);
    for (const record of records) {
      expect(record.HostedZoneId).toBe('Z0123456789ABC');
      expect(record.AliasTarget).toEqual(expect.objectContaining({ DNSName: expect.anything(), HostedZoneId: expect.anything() }));
    }
  });

  it('closes the default execute-api endpoint when asked, and outputs the two base URLs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
    const outputs = template.toJSON().Outputs;
    expect(outputs.SharedEdgeUrl.Value).toBe('https://api.portal.test/api/v1');
    expect(outputs.WorkspaceUrl.Value).toBe('https://<workspace>.portal.test/api/v1');
    expect(outputs.ApiUrl).toBeUndefined();
  });

  it('uses a certificate the operator brings instead of issuing one', () => {
    const arn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-0b0a-0908-0706-050403020100';
    const { template: own } = synth({ customDomain: { domainName: 'portal.test', hostedZoneId: 'Z0123456789ABC', certificateArn: arn } });
    own.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    own.allResourcesProperties('AWS::ApiGatewayV2::DomainName', {
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: arn })],
    });
    own.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
  });

  it('refuses a custom domain that is not the workspace domain (hosts would not resolve to workspaces)', () => {
    expect(() => synth({ workspaceDomain: 'other.test', customDomain: { domainName: 'portal.test', hostedZoneId: 'Z1' } })).toThrow(
      /must be the workspace domain/,
    );
  });
});

interface Widget {
  type: string;
  properties: { title?: string; metrics?: unknown[][] };
}

/** The dashboard's widgets, its `Fn::Join` parts joined with every reference standing in as `REF`. */
function widgetsOf(template: Template): Widget[] {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  const parts: unknown[] = dashboard!.Properties.DashboardBody['Fn::Join'][1];
  return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join('')).widgets;
}

describe('dashboard', () => {
  let plain: Template;
  let widgets: Widget[];
  /** Every metric name graphed, and every line label, as `namespace/name`. */
  let metricNames: Set<string>;
  let labels: Set<string>;
  beforeAll(() => {
    plain = synth({}).template;
    widgets = widgetsOf(plain);
    const lines = widgets.flatMap((w) => w.properties.metrics ?? []);
    metricNames = new Set(lines.filter((line) => typeof line[0] === 'string').map((line) => `${line[0]}/${line[1]}`));
    labels = new Set(lines.map((line) => (line.at(-1) as { label?: string }).label).filter((label): label is string => !!label));
  });
  const titles = () => widgets.map((w) => w.properties.title);

  it('creates nothing for custom domains without the context', () => {
    plain.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    plain.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    plain.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('is one dashboard with the API, business, table, webhook and knowledge-bank rows', () => {
    plain.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const expected = [
      'AWS/ApiGateway/Count',
      'AWS/ApiGateway/4xx',
      'AWS/ApiGateway/5xx',
      'AWS/ApiGateway/Latency',
      'CxPortalApi/IdeasCreated',
      'CxPortalApi/WebhookDeliveriesSucceeded',
      'CxPortalApi/WebhookDeliveriesFailed',
      'AWS/DynamoDB/ConsumedReadCapacityUnits',
      'AWS/DynamoDB/ConsumedWriteCapacityUnits',
      'AWS/DynamoDB/ThrottledRequests',
      'AWS/DynamoDB/SystemErrors',
      'AWS/SQS/ApproximateNumberOfMessagesVisible',
      'AWS/SQS/ApproximateAgeOfOldestMessage',
      'AWS/Lambda/IteratorAge',
    ];
    expect(expected.filter((name) => !metricNames.has(name))).toEqual([]);
    expect(titles()).toEqual(
      expect.arrayContaining(['Latency p50 / p99 (ms)', 'Dead letters', 'Search builder iterator age (ms)', 'Link checks waiting']),
    );
  });

  it('has a row per area with each operation named in its errors, throttles, duration and concurrency graphs', () => {
    const areaGraphs = [...new Set(routes.map(stackOf))].flatMap((tag) =>
      ['errors', 'throttles', 'duration p99 (ms)', 'concurrency'].map((graph) => `${tag}: ${graph}`),
    );
    expect(areaGraphs.filter((title) => !titles().includes(title))).toEqual([]);
    expect(routes.map((r) => r.operationId).filter((id) => !labels.has(id))).toEqual([]);
    for (const name of ['Errors', 'Throttles', 'Duration', 'ConcurrentExecutions'])
      expect(metricNames.has(`AWS/Lambda/${name}`), name).toBe(true);
  });
});

describe('the busiest workspaces (issue 41)', () => {
  let template: Template;
  let widgets: Widget[];
  beforeAll(() => {
    template = synth({ tenants: { requestsPerSecond: '500' } }).template;
    widgets = widgetsOf(template);
  });

  it('ranks workspaces by requests and by capacity units from the usage writes’ log line, in every function’s log group', () => {
    const rules = Object.values(template.findResources('AWS::CloudWatch::InsightRule')).map((r) => r.Properties);
    expect(rules.map((r) => r.RuleName).sort()).toEqual([
      'OpsStack-top-workspaces-by-capacity-units',
      'OpsStack-top-workspaces-by-requests',
    ]);
    for (const rule of rules) {
      const body = JSON.parse(rule.RuleBody);
      expect(rule.RuleState).toBe('ENABLED');
      expect(body).toMatchObject({
        LogGroupNames: ['OpsStack-*'],
        LogFormat: 'JSON',
        AggregateOn: 'Sum',
        Contribution: {
          Keys: [`$.${USAGE_LOG.workspace}`],
          Filters: [{ Match: '$.message', In: [USAGE_LOG.message] }],
        },
      });
      expect([`$.${USAGE_LOG.requests}`, `$.${USAGE_LOG.capacityUnits}`]).toContain(body.Contribution.ValueOf);
    }
  });

  it('graphs each rule’s top 10 on the dashboard', () => {
    const top = widgets.filter((w) => (w.properties as { insightRule?: unknown }).insightRule);
    expect(top.map((w) => (w.properties as { insightRule: { ruleName: string; maxContributorCount: number } }).insightRule)).toEqual([
      { ruleName: 'OpsStack-top-workspaces-by-requests', maxContributorCount: 10, orderBy: 'Sum' },
      { ruleName: 'OpsStack-top-workspaces-by-capacity-units', maxContributorCount: 10, orderBy: 'Sum' },
    ]);
  });

  it('alarms when the busiest workspace passes 80 % of the plan’s budget for five minutes, or 900,000 units', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'))
      .map((r) => r.Properties)
      .filter((p) => JSON.stringify(p.Metrics ?? []).includes('INSIGHT_RULE_METRIC'));
    expect(alarms.map((a) => [JSON.stringify(a.Metrics).match(/top-workspaces-by-[a-z-]+/)![0], a.Threshold]).sort()).toEqual([
      ['top-workspaces-by-capacity-units', 900_000],
      ['top-workspaces-by-requests', 0.8 * 500 * 300],
    ]);
  });
});
