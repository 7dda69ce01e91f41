/**
 * The top workspaces, by requests and by DynamoDB capacity units (issue 41): two CloudWatch
 * Contributor Insights rules over the log line each instance leaves when it writes a workspace's
 * usage (lib/platform/data/usage-writes.ts `USAGE_LOG`), a dashboard row graphing each rule's top 10,
 * and an alarm on each when one workspace passes its threshold in five minutes.
 *
 * Why Contributor Insights rather than a metric per workspace: a custom metric per workspace and
 * measure is billed per metric a month, so the bill would grow with the number of tenants; a rule is
 * billed per log event it matches, and the line it matches is written once per workspace, instance and
 * usage write (about once a second at most), not once per request. AWS's own answer for "top N by a
 * key of high cardinality": https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/ContributorInsights.html
 *
 * Which log groups: every function of the stack writes usage (API functions, and the queue readers
 * that count deliveries and export bytes), and their log groups are named by CloudFormation, which
 * names a resource it names itself `<stack name>-<logical id>-<suffix>`, a nested stack's stack
 * `<parent stack name>-<logical id>-<suffix>`: so `<stack name>-*` is every one of them. A rule may end
 * a name with `*` (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/ContributorInsights-RuleSyntax.html);
 * its filter on the message keeps every other line of those groups out of the rule (and off the bill).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  CfnInsightRule,
  ComparisonOperator,
  ConcreteWidget,
  type IAlarmAction,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { USAGE_LOG } from '../../lib/platform/tenants/usage.ts';

/** What a rule ranks workspaces by: the log line's field, and what the dashboard and alarm call it. */
interface Ranking {
  id: 'Requests' | 'CapacityUnits';
  field: string;
  title: string;
}

const RANKINGS: readonly Ranking[] = [
  { id: 'Requests', field: USAGE_LOG.requests, title: 'Top workspaces by requests (5 min)' },
  { id: 'CapacityUnits', field: USAGE_LOG.capacityUnits, title: 'Top workspaces by DynamoDB capacity units (5 min)' },
];

const FIVE_MINUTES = Duration.minutes(5);

/** The rule's definition, as PutInsightRule takes it. */
function usageRuleBody(logGroupPrefix: string, field: string): Record<string, unknown> {
  return {
    Schema: { Name: 'CloudWatchLogRule', Version: 1 },
    LogGroupNames: [`${logGroupPrefix}*`],
    LogFormat: 'JSON',
    Contribution: {
      Keys: [`$.${USAGE_LOG.workspace}`],
      ValueOf: `$.${field}`,
      Filters: [{ Match: '$.message', In: [USAGE_LOG.message] }],
    },
    AggregateOn: 'Sum',
  };
}

/**
 * A dashboard graph of a Contributor Insights rule's top contributors. The CDK has no widget for one,
 * so this writes the dashboard body's metric widget with `insightRule` as CloudWatch documents it
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CloudWatch-Dashboard-Body-Structure.html).
 */
class TopContributorsWidget extends ConcreteWidget {
  constructor(
    private readonly title: string,
    private readonly ruleName: string,
    private readonly region: string,
    width: number,
  ) {
    super(width, 6);
  }

  toJson(): unknown[] {
    return [
      {
        type: 'metric',
        width: this.width,
        height: this.height,
        x: this.x,
        y: this.y,
        properties: {
          title: this.title,
          region: this.region,
          view: 'timeSeries',
          stacked: false,
          period: FIVE_MINUTES.toSeconds(),
          insightRule: { maxContributorCount: 10, orderBy: 'Sum', ruleName: this.ruleName },
          legend: { position: 'right' },
        },
      },
    ];
  }
}

/**
 * The alarms' thresholds when the context sets none: a workspace at 80 % of the plan's request budget
 * for five minutes, and one consuming 3,000 capacity units a second, three partitions' worth of writes.
 */
export function defaultTenantAlarms(planRequestsPerSecond: number): { requests: number; capacityUnits: number } {
  return { requests: Math.round(0.8 * planRequestsPerSecond * 300), capacityUnits: 900_000 };
}

export interface TenantInsightsProps {
  /** Alarm when one workspace makes this many requests in five minutes. */
  requestsAlarmThreshold: number;
  /** Alarm when one workspace's requests consume this many DynamoDB capacity units in five minutes. */
  capacityUnitsAlarmThreshold: number;
  alarmAction?: IAlarmAction;
}

export class TenantInsights extends Construct {
  readonly widgets: ConcreteWidget[] = [];
  readonly alarms: Alarm[] = [];
  readonly rules: CfnInsightRule[] = [];

  constructor(scope: Construct, id: string, props: TenantInsightsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const thresholds = { Requests: props.requestsAlarmThreshold, CapacityUnits: props.capacityUnitsAlarmThreshold };
    for (const ranking of RANKINGS) {
      const ruleName = `${stack.stackName}-top-workspaces-by-${ranking.id === 'Requests' ? 'requests' : 'capacity-units'}`;
      const rule = new CfnInsightRule(this, `TopWorkspacesBy${ranking.id}`, {
        ruleName,
        ruleState: 'ENABLED',
        ruleBody: stack.toJsonString(usageRuleBody(`${stack.stackName}-`, ranking.field)),
      });
      this.rules.push(rule);
      this.widgets.push(new TopContributorsWidget(ranking.title, ruleName, stack.region, 12));
      const alarm = new Alarm(this, `TopWorkspaceBy${ranking.id}Alarm`, {
        alarmDescription:
          `One workspace passed ${thresholds[ranking.id].toLocaleString('en')} ${ranking.id === 'Requests' ? 'requests' : 'DynamoDB capacity units'} ` +
          'in five minutes: see the dashboard’s top workspaces, then `cxctl usage --all` (docs/operating.md, Tenants)',
        metric: new MathExpression({
          expression: `INSIGHT_RULE_METRIC('${ruleName}', 'MaxContributorValue')`,
          usingMetrics: {},
          period: FIVE_MINUTES,
          label: `Busiest workspace's ${ranking.id === 'Requests' ? 'requests' : 'capacity units'}`,
        }),
        threshold: thresholds[ranking.id],
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      // The alarm names the rule by its name, which CloudFormation must have created first.
      alarm.node.addDependency(rule);
      if (props.alarmAction) alarm.addAlarmAction(props.alarmAction);
      this.alarms.push(alarm);
    }
  }
}
