/**
 * Idea items written straight to the table, exactly as the contract between the ideas area and
 * the webhook pipeline describes them (one item, `entity: 'Idea'`, `version` +1 on every change,
 * updates rewrite it, delete removes it), so the pipeline can be tested on real DynamoDB stream
 * records independently of the ideas API. The personal fields are there so tests can prove they
 * never reach a receiver.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import { adminStore } from './fixtures.ts';

export const PERSONAL_MARKERS = ['Jane Submitter', 'jane@example.com', 'identity-hash-7f3a', 'VIP customer since 2019'];

const ideaKey = ideaEntity.keys.idea;

export async function putIdea(slug: string, fields: { status?: string; title?: string } = {}): Promise<string> {
  const id = `idea-${randomUUID().slice(0, 8)}`;
  const now = new Date().toISOString();
  await adminStore().db.send(
    new PutCommand({
      TableName: adminStore().table,
      Item: {
        ...ideaKey(slug, id),
        entity: ideaEntity.name,
        id,
        workspace: slug,
        title: fields.title ?? 'A confidential idea title',
        description: 'Private description text',
        status: fields.status,
        version: 1,
        submitter: { name: PERSONAL_MARKERS[0], email: PERSONAL_MARKERS[1] },
        identityHash: PERSONAL_MARKERS[2],
        customerContext: PERSONAL_MARKERS[3],
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
  return id;
}

/** Rewrite the idea with new field values and the next version, as every idea update does. */
export async function updateIdea(slug: string, id: string, changes: { status?: string | null; title?: string }): Promise<void> {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1, ':now': new Date().toISOString() };
  const sets = ['#version = #version + :one', 'updatedAt = :now'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(changes)) {
    names[`#${field}`] = field;
    if (value === null) removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  await adminStore().db.send(
    new UpdateCommand({
      TableName: adminStore().table,
      Key: ideaKey(slug, id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

export async function deleteIdea(slug: string, id: string): Promise<void> {
  await adminStore().db.send(new DeleteCommand({ TableName: adminStore().table, Key: ideaKey(slug, id) }));
}
