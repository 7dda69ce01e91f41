/**
 * One workspace's link check: read its link items, probe each distinct http(s) URL (oldest
 * result first), record the results. A run stops taking new URLs at its deadline, so a workspace
 * with more links than one function run can check is finished by the runs that follow.
 */
import { type ProbeResult, probeAll, probeUrl } from './probe.ts';
import { type CheckResult, resultOf, urlsToCheck } from './results.ts';
import { linkItemsOf, recordResults } from './store/links.ts';

export interface LinkCheckRun {
  workspace: string;
  checked: number;
  remaining: number;
  /** Link items rewritten by a draft save during the run, left for the next one. */
  skippedItems: number;
}

export async function checkWorkspaceLinks(
  workspace: string,
  { deadline, check = probeUrl }: { deadline: number; check?: (url: string) => Promise<ProbeResult> },
): Promise<LinkCheckRun> {
  const items = await linkItemsOf(workspace);
  const results = new Map<string, CheckResult>();
  const { checked, remaining } = await probeAll(
    urlsToCheck(items),
    (url, probe) => {
      results.set(url, resultOf(probe, new Date().toISOString()));
    },
    { shouldStop: () => Date.now() >= deadline, check },
  );
  const skippedItems = await recordResults(items, results);
  return { workspace, checked, remaining, skippedItems };
}
