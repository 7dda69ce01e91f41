/**
 * A batch of survey-response changes of the table stream, folded into the day-bucket summaries
 * (summary/aggregator.ts) together, which is what keeps counter writes few. The aggregator counts
 * each response revision once, so a batch read again is harmless.
 */
import { workspaceAcceptsDerivedWrites } from '../../platform/data/workspaces.ts';
import { type AggregationResult, aggregateResponseRecords } from '../summary/aggregator.ts';
import type { ResponseRecord } from '../summary/stream-records.ts';

/**
 * Only responses of workspaces that still take summaries: none of one `cxctl workspace delete` has
 * marked, whose removals would otherwise write its summaries back (one consistent read per workspace).
 */
async function countable(responses: readonly ResponseRecord[]): Promise<ResponseRecord[]> {
  const accepting = new Map<string, Promise<boolean>>();
  for (const { workspace } of responses) if (!accepting.has(workspace)) accepting.set(workspace, workspaceAcceptsDerivedWrites(workspace));
  const kept = await Promise.all(responses.map(async (response) => ((await accepting.get(response.workspace)) ? response : null)));
  return kept.filter((response): response is ResponseRecord => response !== null);
}

/** Throws when the summaries could not be written: the batch is read again. */
export async function foldResponseChanges(responses: readonly ResponseRecord[]): Promise<AggregationResult> {
  return aggregateResponseRecords(await countable(responses));
}
