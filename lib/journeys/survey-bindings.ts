/**
 * Which published journey versions bind a survey's questions: the one function the surveys area
 * asks (contract §3) before publishing a survey version that removes or retypes questions. Each
 * journey publish keeps one index item per survey its metric cells bind without pinning a version
 * (`keys.surveyMetricBinding`), in the publish's own transaction, and archive deletes them in its
 * own (store/metric-follows.ts); this reads them with one Query.
 */
import { getMany } from '../platform/data/batch.ts';
import { tableName } from '../platform/data/client.ts';
import { keys } from '../platform/data/keys.ts';
import { queryAll } from '../platform/data/query-all.ts';

export const METRIC_BINDING_ENTITY = 'JourneyMetricBinding';

/** Changes to a question that leave a metric bound to it meaning something else, or nothing. */
const UNBINDING_KINDS = new Set(['question_removed', 'type_changed', 'scale_changed', 'input_type_changed']);

export interface UnboundMetric {
  kind: 'journey_metric_unbound';
  questionId: string;
  journeyId: string;
  versionId: string;
  detail: string;
}

/**
 * The binding items whose journey is still there and not archived. Archives before binding items
 * were deleted with the journey left theirs behind, so the items that would hold a publish back
 * are checked against their journeys: one BatchGetItem, only when the Query found any.
 */
async function withoutArchivedJourneys(workspace: string, items: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  if (items.length === 0) return items;
  const journeyIds = [...new Set(items.map((item) => item.journeyId as string))];
  const journeys = await getMany(
    journeyIds.map((journeyId) => keys.journey(workspace, journeyId)),
    { attributes: ['archivedAt'] },
  );
  const live = new Set(journeyIds.filter((_, n) => journeys[n] && journeys[n].archivedAt === undefined));
  return items.filter((item) => live.has(item.journeyId as string));
}

/**
 * The metrics of published journey versions that `changes` (a survey publish's breaking changes)
 * would unbind: one Query of the survey's binding items (and a BatchGetItem of their journeys when it
 * finds any), none when no change touches a question.
 */
export async function unboundJourneyMetrics(
  workspace: string,
  surveyId: string,
  changes: readonly { kind: string; questionId: string }[],
): Promise<UnboundMetric[]> {
  const changed = new Set(changes.filter((change) => UNBINDING_KINDS.has(change.kind)).map((change) => change.questionId));
  if (changed.size === 0) return [];
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': keys.surveyMetricBindingPrefix(surveyId) },
    ConsistentRead: true,
  });
  const live = await withoutArchivedJourneys(workspace, items);
  return live.flatMap((item) =>
    ((item.questionIds ?? []) as string[])
      .filter((questionId) => changed.has(questionId))
      .map((questionId) => ({
        kind: 'journey_metric_unbound' as const,
        questionId,
        journeyId: item.journeyId as string,
        versionId: item.versionId as string,
        detail: `the published version of journey ${item.journeyId as string} computes a metric from question ${questionId}`,
      })),
  );
}
