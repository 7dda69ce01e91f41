/**
 * What every layout migration is (the registry, index.ts, lists them in the order they run): an id
 * that sorts in that order, a title, what it changes, and `run`, which works from a checkpoint and
 * reports progress after every step, so `cxctl migrate` can resume it after a crash or Ctrl-C.
 * A migration is idempotent: each item it changes is changed by a conditional write, so a step done
 * twice (the last one before a crash) changes nothing the second time.
 */
import type { TableClient } from '../table-client.ts';
import type { MigrationCounts } from './records.ts';
import type { WriteRate } from './write-rate.ts';

export interface MigrationContext {
  store: TableClient;
  /** Count what would change, write nothing. */
  dryRun: boolean;
  /** A sandbox or LocalStack table (cxctl without --table, or with --endpoint): table-level changes may run in place. */
  local: boolean;
  /** Where the last, interrupted run got to (undefined: from the start). */
  resumeFrom: Record<string, unknown> | undefined;
  /** What it changed so far, by kind; the migration adds to it. */
  counts: MigrationCounts;
  /** Every item write waits for this. */
  rate: WriteRate;
  /** Saves progress after a step; false when the operator asked to stop (Ctrl-C): return then. */
  step(checkpoint: Record<string, unknown> | undefined): Promise<boolean>;
  log(line: string): void;
}

export interface Migration {
  /** Sorts in the order migrations run: `001-…`, `002-…`. */
  id: string;
  title: string;
  /** What it changes, one line each (`cxctl migrate status` prints them). */
  changes: readonly string[];
  /** True when it finished; false when it stopped at the operator's request. */
  run(context: MigrationContext): Promise<boolean>;
}

export function add(counts: MigrationCounts, what: string, by = 1): void {
  counts[what] = (counts[what] ?? 0) + by;
}
