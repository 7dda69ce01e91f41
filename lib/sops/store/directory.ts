/**
 * Reads of the SOP directory, which `cxctl directory import` (lib/admin/directory.ts) writes:
 * people under `DIR#PERSON#<id>`, teams under `DIR#TEAM#<id>`, never deleted, only deactivated.
 */
import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { projectionWith } from '../../platform/data/projection.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { directoryPersonEntity, directoryTeamEntity } from '../entities.ts';

export interface DirectoryPerson {
  id: string;
  name: string;
  email: string;
  active: boolean;
  sourceUserId: string | null;
}

export interface DirectoryTeam {
  id: string;
  name: string;
  active: boolean;
  sourceDepartmentId: string | null;
}

export type DirectoryKind = 'person' | 'team';

export interface DirectoryEntryState {
  id: string;
  kind: DirectoryKind;
  active: boolean;
}

const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The whole directory of a workspace, inactive entries included, each list sorted by name: one Query on `DIR#`. */
export async function listDirectory(workspace: string): Promise<{ people: DirectoryPerson[]; teams: DirectoryTeam[] }> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': directoryPersonEntity.keys.directoryPrefix },
    ...projectionWith(['id', 'name', 'email', 'active', 'sourceUserId', 'sourceDepartmentId'], ['sk']),
    ConsistentRead: true,
  });
  const people: DirectoryPerson[] = [];
  const teams: DirectoryTeam[] = [];
  for (const item of items) {
    const sk = item.sk as string;
    if (sk.startsWith(directoryPersonEntity.keys.prefix)) {
      people.push({
        id: item.id as string,
        name: item.name as string,
        email: item.email as string,
        active: item.active as boolean,
        sourceUserId: (item.sourceUserId as string | undefined) ?? null,
      });
    } else if (sk.startsWith(directoryTeamEntity.keys.prefix)) {
      teams.push({
        id: item.id as string,
        name: item.name as string,
        active: item.active as boolean,
        sourceDepartmentId: (item.sourceDepartmentId as string | undefined) ?? null,
      });
    }
  }
  return { people: people.sort(byName), teams: teams.sort(byName) };
}

/**
 * Which of the given (id, kind) entries exist, and whether each is active: one BatchGetItem for up
 * to 100 distinct keys (a retry only for keys DynamoDB left unprocessed). Absent entries are omitted.
 */
export async function findDirectoryEntries(
  workspace: string,
  lookups: readonly { id: string; kind: DirectoryKind }[],
): Promise<DirectoryEntryState[]> {
  const wanted = new Map<string, { pk: string; sk: string }>();
  for (const { id, kind } of lookups) {
    const key = kind === 'person' ? directoryPersonEntity.keys.person(workspace, id) : directoryTeamEntity.keys.team(workspace, id);
    wanted.set(key.sk, key);
  }
  if (wanted.size === 0) return [];
  if (wanted.size > 100) throw new Error('findDirectoryEntries takes at most 100 distinct entries');

  const found: DirectoryEntryState[] = [];
  for (const item of await getMany([...wanted.values()], { attributes: ['id', 'active'] })) {
    if (!item) continue;
    const sk = item.sk as string;
    found.push({
      id: item.id as string,
      kind: sk.startsWith(directoryPersonEntity.keys.prefix) ? 'person' : 'team',
      active: item.active === true,
    });
  }
  return found;
}
