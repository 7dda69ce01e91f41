/**
 * The move of a merge's or an unmerge's votes, as the request that committed it runs it: until done,
 * or until its time is nearly up (the route's function has 28 s, API Gateway 29 s), or until DynamoDB
 * keeps timing out; then the rest is handed to the table stream (store/merges.ts) and the request
 * answers 202. The stream's mover, fenced by the same generation, finishes it; a move that meets the
 * work done (another mover finished it) changes nothing.
 */
import type { MergeWork } from '../merging.ts';
import { finishMergeWork, handOffMergeWork, moveVotes } from '../store/merges.ts';

/** How long a request moves votes before it hands the rest off: well inside its function's 28 s. */
const INLINE_MOVE_MS = 18_000;

/** Errors of a DynamoDB call that did not finish in its time or was throttled: the stream takes over, where they are retried. */
const TRANSIENT = new Set(['TimeoutError', 'ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

export async function moveMergedVotes(
  workspace: string,
  kind: MergeWork,
  source: string,
  target: string,
  generation: number,
  startedAt: number,
): Promise<'done' | 'moving'> {
  let outcome: Awaited<ReturnType<typeof moveVotes>>;
  try {
    outcome = await moveVotes(workspace, kind, source, target, generation, startedAt + INLINE_MOVE_MS);
  } catch (error) {
    if (!TRANSIENT.has((error as { name?: string }).name ?? '')) throw error;
    outcome = 'unfinished';
  }
  if (outcome === 'unfinished') {
    await handOffMergeWork(workspace, source, generation);
    return 'moving';
  }
  if (outcome === 'moved') await finishMergeWork(workspace, source, kind, generation);
  return 'done';
}
