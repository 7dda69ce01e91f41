/**
 * Whether a layout migration (lib/admin/migrations/, run by `cxctl migrate`) has finished on this
 * table, as this instance last saw it. Until it has, a store reads the old layout beside the new one;
 * afterwards never again. The migration's record (`TABLE#MIGRATIONS`, keys.ts) is read at most once a
 * minute per instance while it is unfinished, and never after it is seen finished (a finished
 * migration stays finished), always inside a round trip the store makes anyway: its key rides along a
 * BatchGetItem, or a GetItem goes out beside the store's Queries.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableKey } from './batch.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';

/** How long an instance trusts "not finished yet" before it looks again. */
const RECHECK_MS = 60_000;

export class LayoutMigration {
  private finished = false;
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(readonly id: string) {}

  /** True while reads must also look at the layout from before the migration. */
  get pending(): boolean {
    return !this.finished;
  }

  /**
   * The migration record's key when this instance should look at it now (read it beside the store's own
   * reads and pass it to `settle`); undefined when it is known finished or was looked at within a minute.
   */
  due(): TableKey | undefined {
    if (this.finished || Date.now() - this.checkedAt < RECHECK_MS) return undefined;
    // Taken now, so concurrent requests of this instance do not all read it.
    this.checkedAt = Date.now();
    return keys.tableMigration(this.id);
  }

  /** What a read of the record found (undefined: none yet). */
  settle(record: Record<string, unknown> | undefined): void {
    if (typeof record?.finishedAt === 'string') this.finished = true;
  }

  /** Reads the record alone when it is due, for a caller whose own reads are Queries; never fails the caller. */
  async check(): Promise<void> {
    const key = this.due();
    if (!key) return;
    try {
      const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: key }));
      this.settle(Item);
    } catch {
      // Still pending: the legacy layout is read a while longer, which is correct, only dearer.
      this.checkedAt = Number.NEGATIVE_INFINITY;
    }
  }
}
