/**
 * Which published journey versions bind a survey's questions: the one function the surveys area
 * asks (contract §3) before publishing a survey version that removes or retypes questions. Each
 * journey publish keeps one index item per survey its metric cells bind without pinning a version
 * (entities.ts `journeyMetricBindingEntity`), in the publish's own transaction, and archive deletes
 * them in its own (store/metric-follows.ts); this reads them with one Query.
 */
import { listLiveMetricFollows } from './store/metric-follows.ts';

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
  const live = await listLiveMetricFollows(workspace, surveyId);
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
