/**
 * An instance's usage not yet written: counters by workspace and hour, added to as requests and
 * events end, taken whole by the writer (lib/platform/data/usage-writes.ts) at most once every
 * `everyMs`. A buffer per instance is what keeps usage off the request's path and off any hot item:
 * one write per workspace and hour per instance and flush, however many requests it served. What it
 * holds when the instance dies (a crash, a timeout, Lambda retiring it idle) is lost: docs/operating.md.
 */
import { addCounters, type Counters, hourOf } from './usage.ts';

export interface BufferedUsage {
  workspace: string;
  hour: string;
  counters: Counters;
  /** Which items of the hour still need them: both, or the one a write failed for. */
  into: 'hour and day' | 'hour' | 'day';
}

const buffered = new Map<string, BufferedUsage>();
let lastTakenMs = Date.now();

export function recordUsage(workspace: string, atMs: number, counters: Counters): void {
  keep({ workspace, hour: hourOf(atMs), counters, into: 'hour and day' });
}

function keep(usage: BufferedUsage): void {
  if (Object.keys(usage.counters).length === 0) return;
  const id = `${usage.workspace}\u0000${usage.hour}\u0000${usage.into}`;
  const entry = buffered.get(id) ?? { ...usage, counters: {} };
  addCounters(entry.counters, usage.counters);
  buffered.set(id, entry);
}

/** Everything buffered, if there is any and `everyMs` passed since the last take (0: whenever there is any). */
export function takeUsage(nowMs: number, everyMs: number): BufferedUsage[] {
  if (buffered.size === 0 || nowMs - lastTakenMs < everyMs) return [];
  lastTakenMs = nowMs;
  const taken = [...buffered.values()];
  buffered.clear();
  return taken;
}

/** What a write could not write goes back, to be written with the next. */
export function putBackUsage(entries: readonly BufferedUsage[]): void {
  for (const entry of entries) keep(entry);
}
