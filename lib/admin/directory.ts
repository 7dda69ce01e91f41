/**
 * `cxctl directory import`: loads the SOP directory (people and teams) of a workspace from a
 * company-profile export. Ids are derived from the workspace and each entry's natural key
 * (sourceUserId, else e-mail; sourceDepartmentId, else name), so re-importing keeps them stable,
 * and entries missing from a new import are marked inactive, never deleted, so SOPs that
 * reference them still resolve.
 */
import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { workspacePk } from '../platform/data/keys.ts';
import { toIssues } from '../platform/http/middleware/validate-request.ts';
import { directoryPersonEntity, directoryTeamEntity } from '../sops/entities.ts';
import { AdminError, type AdminWrite, type TableClient, transactOrRefuse, workspaceExists } from './table-client.ts';

const importFile = z.strictObject({
  people: z._default(
    z.array(
      z.strictObject({
        name: z.string().check(z.minLength(1), z.maxLength(200)),
        email: z.email(),
        active: z.boolean(),
        sourceUserId: z.optional(z.uuid()),
      }),
    ),
    [],
  ),
  teams: z._default(
    z.array(
      z.strictObject({
        name: z.string().check(z.minLength(1), z.maxLength(200)),
        active: z.boolean(),
        sourceDepartmentId: z.optional(z.uuid()),
      }),
    ),
    [],
  ),
});
export type DirectoryImport = z.output<typeof importFile>;

/** A name-based UUID (RFC 9562 version 5 layout), so the same input always gives the same id. */
export function stableUuid(...parts: string[]): string {
  const hash = createHash('sha1').update(parts.join('\u0000')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function parseDirectoryImport(json: unknown): DirectoryImport {
  const result = importFile.safeParse(json);
  if (!result.success) {
    const issue = toIssues('file', result.error)[0]!;
    throw new AdminError(`Invalid directory file: ${issue.path}: ${issue.message}`);
  }
  const emails = result.data.people.map((p) => p.email.toLowerCase());
  if (new Set(emails).size !== emails.length) throw new AdminError('Invalid directory file: an e-mail appears twice');
  return result.data;
}

export async function importDirectory(
  store: TableClient,
  workspace: string,
  data: DirectoryImport,
): Promise<{ people: number; teams: number; deactivated: number }> {
  const now = new Date().toISOString();
  const people = data.people.map((p) => {
    const id = stableUuid(workspace, 'person', p.sourceUserId ?? p.email.toLowerCase());
    return { ...directoryPersonEntity.keys.person(workspace, id), entity: directoryPersonEntity.name, id, ...p, updatedAt: now };
  });
  const teams = data.teams.map((t) => {
    const id = stableUuid(workspace, 'team', t.sourceDepartmentId ?? t.name.toLowerCase());
    return { ...directoryTeamEntity.keys.team(workspace, id), entity: directoryTeamEntity.name, id, ...t, updatedAt: now };
  });
  const seen = new Set([...people, ...teams].map((item) => item.sk));

  const existing = await store.db.send(
    new QueryCommand({
      TableName: store.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': directoryPersonEntity.keys.directoryPrefix },
      ProjectionExpression: 'pk, sk, active',
    }),
  );
  const stale = (existing.Items ?? []).filter((item) => !seen.has(item.sk as string) && item.active !== false);

  const writes: AdminWrite[] = [
    ...[...people, ...teams].map((Item): AdminWrite => ({ Put: { TableName: store.table, Item } })),
    ...stale.map(
      (item): AdminWrite => ({
        Update: {
          TableName: store.table,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET active = :false, updatedAt = :now',
          ExpressionAttributeValues: { ':false': false, ':now': now },
        },
      }),
    ),
  ];
  // The file is validated whole before anything is written. A transaction holds 100 writes, so a
  // larger directory goes in several; every write is idempotent, so re-running a failed import
  // finishes it with the same ids.
  for (let start = 0; start === 0 || start < writes.length; start += 99) {
    await transactOrRefuse(
      store,
      [workspaceExists(store, workspace), ...writes.slice(start, start + 99)],
      `Workspace "${workspace}" does not exist`,
    );
  }
  return { people: people.length, teams: teams.length, deactivated: stale.length };
}
