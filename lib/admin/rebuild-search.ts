/**
 * `cxctl rebuild search --workspace <slug> | --all`: each workspace's search index built again from
 * its live articles, with the builder the stream runs (lib/knowledge-bank/search/builder.ts). For
 * after a restore or a redeploy (the table's manifest can name segments the bucket no longer
 * holds), or whenever an index is in doubt. Idempotent: a second run builds the same index again.
 * With `--all`, progress is kept per workspace (lib/admin/jobs.ts): a run interrupted goes on after
 * the last workspace done.
 *
 * Loads the builder, which reads TABLE_NAME and KB_SEARCH_BUCKET when loaded: import this module
 * only once `areaEnvironment(target)` is in process.env.
 */
import { rebuildSearchIndex } from '../knowledge-bank/search/builder.ts';
import { openJob } from './jobs.ts';
import type { TableClient } from './table-client.ts';

export interface SearchRebuild {
  workspace: string;
  result: 'rebuilt' | 'nothing-to-index';
  articles: number;
  bytes: number;
  ms: number;
}

/** Rebuilds one workspace's index. */
export async function rebuildWorkspaceSearch(workspace: string): Promise<SearchRebuild> {
  const started = performance.now();
  const result = await rebuildSearchIndex(workspace);
  const ms = Math.round(performance.now() - started);
  return result.kind === 'rebuilt'
    ? { workspace, result: 'rebuilt', articles: result.articles, bytes: result.bytes, ms }
    : { workspace, result: 'nothing-to-index', articles: 0, bytes: 0, ms };
}

/** Rebuilds every workspace of `workspaces` (in order), going on after the last one an interrupted run finished. */
export async function rebuildAllSearch(
  store: TableClient,
  workspaces: readonly string[],
  options: { restart?: boolean; log: (line: string) => void },
): Promise<SearchRebuild[]> {
  const job = await openJob<{ after: string }>(store, 'rebuild-search', { restart: options.restart });
  const after = job.resumed?.state.after;
  if (after) options.log(`Going on after ${after} (a run started ${job.resumed?.startedAt} got that far; --restart starts over)`);
  const todo = after ? workspaces.filter((slug) => slug > after) : [...workspaces];
  const done: SearchRebuild[] = [];
  for (const [index, workspace] of todo.entries()) {
    const rebuilt = await rebuildWorkspaceSearch(workspace);
    done.push(rebuilt);
    options.log(`[${index + 1}/${todo.length}] ${describeSearchRebuild(rebuilt)}`);
    await job.save({ after: workspace });
  }
  await job.complete();
  return done;
}

export function describeSearchRebuild(rebuilt: SearchRebuild): string {
  return rebuilt.result === 'rebuilt'
    ? `${rebuilt.workspace}: index rebuilt, ${rebuilt.articles} article(s), ${rebuilt.bytes} bytes, ${rebuilt.ms} ms`
    : `${rebuilt.workspace}: nothing published, no index needed`;
}
