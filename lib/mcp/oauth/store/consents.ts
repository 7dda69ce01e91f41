/**
 * A consent in progress, then its authorization code: `WS#<slug>` / `OAUTHCONSENT#<id>`. Written
 * only once a person proved they hold a Developer key (the consent page's first step), so nobody
 * without a key can make the API store anything; it holds that key's id (never the key), the
 * client's request, and the hash of the form's CSRF token. Allow turns it into a code (its hash,
 * the permissions granted, the lifetime chosen), single-use: the token endpoint marks it used in the
 * same transaction that creates the derived key, and a second use revokes that key. TTL: gone a
 * day after it expires.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { isConditionFailure } from '../../../platform/data/conditions.ts';
import { keys } from '../../../platform/data/keys.ts';
import { TABLE } from '../../../platform/data/table.ts';
import type { TransactWrite } from '../../../platform/data/transact.ts';
import type { Permission } from '../../../platform/permissions.ts';

const ENTITY = 'OAuthConsent';
const consentKey = (workspace: string, id: string) => ({ pk: keys.workspacePk(workspace), sk: `OAUTHCONSENT#${id}` });

export interface Consent {
  id: string;
  workspace: string;
  csrfHash: string;
  parentKeyId: string;
  /** The requested permissions the key held when it was entered: what the page offered. */
  offered: Permission[];
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  state: string | null;
  expiresAt: string;
  /** Once allowed: the code's hash, what was granted, for how long, until when the code may be used. */
  codeHash?: string;
  granted?: Permission[];
  lifetimeDays?: number;
  codeExpiresAt?: string;
  /** Once exchanged: when, and the derived key it made (revoked if the code comes back). */
  usedAt?: string;
  derivedKeyId?: string;
}

const ttlOf = (iso: string) => Math.floor(Date.parse(iso) / 1000) + 86_400;

export async function putConsent(consent: Consent): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...consentKey(consent.workspace, consent.id), entity: ENTITY, ...consent, [TABLE.ttlAttribute]: ttlOf(consent.expiresAt) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findConsent(workspace: string, id: string): Promise<Consent | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: consentKey(workspace, id), ConsistentRead: true }));
  if (!Item) return null;
  const { pk: _pk, sk: _sk, entity: _entity, [TABLE.ttlAttribute]: _ttl, ...consent } = Item;
  return consent as Consent;
}

/** Allow: the consent becomes a code, once (its CSRF token spent). False when it was answered already. */
export async function allowConsent(
  consent: Consent,
  code: { codeHash: string; granted: Permission[]; lifetimeDays: number; codeExpiresAt: string },
): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: consentKey(consent.workspace, consent.id),
        UpdateExpression:
          'SET codeHash = :codeHash, granted = :granted, lifetimeDays = :days, codeExpiresAt = :until, #ttl = :ttl REMOVE csrfHash',
        ConditionExpression: 'csrfHash = :csrf AND attribute_not_exists(codeHash)',
        ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: {
          ':codeHash': code.codeHash,
          ':granted': code.granted,
          ':days': code.lifetimeDays,
          ':until': code.codeExpiresAt,
          ':ttl': ttlOf(code.codeExpiresAt),
          ':csrf': consent.csrfHash,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Deny: the consent is gone, its CSRF token with it. */
export async function deleteConsent(consent: Consent): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName, Key: consentKey(consent.workspace, consent.id) }));
}

/** The transaction part that spends the code: it must be unused, and names the derived key made from it. */
export function spendCode(consent: Consent, derivedKeyId: string, now: string): TransactWrite {
  return {
    Update: {
      TableName: tableName,
      Key: consentKey(consent.workspace, consent.id),
      UpdateExpression: 'SET usedAt = :now, derivedKeyId = :derived',
      ConditionExpression: 'codeHash = :hash AND attribute_not_exists(usedAt)',
      ExpressionAttributeValues: { ':now': now, ':derived': derivedKeyId, ':hash': consent.codeHash },
    },
  };
}
