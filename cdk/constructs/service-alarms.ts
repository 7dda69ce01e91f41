/**
 * The service's operational alarms, beside the webhook pipeline's own: what a caller notices (API
 * 5xx rate and p99 latency), what breaks a function (errors, throttles) and what breaks the table
 * (throttled requests, system errors). Each alarm notifies `alarmAction` when given.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IAlarmAction, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface ServiceAlarmsProps {
  api: HttpApi;
  table: ITable;
  /** The functions of this stack, by a readable name (each area stack alarms on its own routes' functions). */
  functions: ReadonlyMap<string, IFunction>;
  alarmAction?: IAlarmAction;
}

const FIVE_MINUTES = Duration.minutes(5);
/** Every operation the service sends to the table (GetRecords: the stream the webhook fan-out reads). */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.GET_RECORDS,
];

/**
 * One alarm per function: it failed (an unhandled error or a timeout) or was throttled. Created in
 * `scope`, so an area's nested stack holds the alarms of its own functions.
 */
export function alarmOnFunctionFailures(scope: Construct, name: string, fn: IFunction, alarmAction?: IAlarmAction): Alarm {
  const alarm = new Alarm(scope, `${name}ErrorsAlarm`, {
    alarmDescription: `${name}: the function failed (an unhandled error or a timeout) or was throttled`,
    metric: new MathExpression({
      expression: 'errors + throttles',
      usingMetrics: {
        errors: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        throttles: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
      },
      period: FIVE_MINUTES,
      label: `${name} errors + throttles`,
    }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  if (alarmAction) alarm.addAlarmAction(alarmAction);
  return alarm;
}

export class ServiceAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const alarm = (alarmId: string, description: string, metric: IMetric, threshold: number, evaluationPeriods = 1) => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (props.alarmAction) created.addAlarmAction(props.alarmAction);
      this.alarms.push(created);
    };

    alarm(
      'Api5xxRateAlarm',
      'At least 5% of API requests answered 5xx (our 502 envelope, or API Gateway after a function failure or timeout) for 10 minutes',
      new MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
          requests: props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
        },
        period: FIVE_MINUTES,
        label: 'API 5xx rate (%)',
      }),
      5,
      2,
    );
    alarm(
      'ApiLatencyAlarm',
      'The API p99 latency was 3 s or more for 10 minutes',
      props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
      3000,
      2,
    );
    for (const [name, fn] of props.functions) this.alarms.push(alarmOnFunctionFailures(this, name, fn, props.alarmAction));
    alarm(
      'TableThrottleAlarm',
      'DynamoDB throttled requests to the table',
      props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
      1,
    );
    alarm(
      'TableSystemErrorsAlarm',
      'DynamoDB answered requests to the table with a system error (HTTP 500)',
      props.table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
      1,
    );
  }
}
