/**
 * `pairedBy`, the string set on a journey of the journeys whose published version pairs it: kept by
 * publish and archive in their own transactions, and read by archive to refuse a journey in use.
 */

import { tableName } from '../../platform/data/client.ts';
import type { NamedWrites, TransactWrite } from '../../platform/data/transact.ts';
import { type UpdateBuilder, update } from '../../platform/data/update.ts';
import type { PairTarget } from '../cycles.ts';
import { journeyEntity } from '../entities.ts';

export const distinctJourneys = (pairs: readonly PairTarget[]) => [...new Set(pairs.map((pair) => pair.journeyId))];

/** The Update of the paired journey's `pairedBy` set. */
function pairedByChange(workspace: string, pairedId: string, change: ReturnType<UpdateBuilder['build']>): TransactWrite {
  return { Update: { TableName: tableName, Key: journeyEntity.keys.journey(workspace, pairedId), ...change } };
}

function stopPairing(workspace: string, pairedId: string, pairerId: string): TransactWrite {
  // Never create an item: a journey that is gone has nothing to forget.
  const change = update()
    .deleteFromSet('pairedBy', new Set([pairerId]))
    .build({ expression: 'attribute_exists(pk)' });
  return pairedByChange(workspace, pairedId, change);
}

function startPairing(workspace: string, pairedId: string, pairerId: string): TransactWrite {
  const change = update()
    .add('pairedBy', new Set([pairerId]))
    .build({ expression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)' });
  return pairedByChange(workspace, pairedId, change);
}

/** `stopPairing` for each journey, named `unpair <id>` in a transaction. */
export function stopPairingAll(workspace: string, pairedIds: readonly string[], pairerId: string): NamedWrites {
  return Object.fromEntries(pairedIds.map((id) => [`unpair ${id}`, stopPairing(workspace, id, pairerId)]));
}

/** `startPairing` for each journey, named `pair <id>` in a transaction. */
export function startPairingAll(workspace: string, pairedIds: readonly string[], pairerId: string): NamedWrites {
  return Object.fromEntries(pairedIds.map((id) => [`pair ${id}`, startPairing(workspace, id, pairerId)]));
}
