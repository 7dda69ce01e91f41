/**
 * The progress of a long operator command, kept in the table (keys.operatorJob) so that a run
 * interrupted by a lost connection or a Ctrl-C, started again from any machine, goes on where the
 * last one got to. One small item per job, written after each unit of work (a workspace, a page of
 * responses: one write unit each) and deleted when the job completes.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../platform/data/keys.ts';
import type { TableClient } from './table-client.ts';

interface JobProgress<State> {
  startedAt: string;
  updatedAt: string;
  state: State;
}

export interface Job<State> {
  /** What the last run saved, unless it completed or `restart` was asked. */
  resumed: JobProgress<State> | null;
  save(state: State): Promise<void>;
  complete(): Promise<void>;
}

export async function openJob<State>(store: TableClient, name: string, options: { restart?: boolean } = {}): Promise<Job<State>> {
  const key = keys.operatorJob(name);
  const { Item } = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  const resumed = Item && !options.restart ? (Item as unknown as JobProgress<State>) : null;
  const startedAt = resumed?.startedAt ?? new Date().toISOString();
  return {
    resumed,
    save: async (state) => {
      await store.db.send(
        new PutCommand({
          TableName: store.table,
          Item: { ...key, entity: 'OperatorJob', job: name, startedAt, updatedAt: new Date().toISOString(), state },
        }),
      );
    },
    complete: async () => {
      await store.db.send(new DeleteCommand({ TableName: store.table, Key: key }));
    },
  };
}
