/**
 * OAuth clients registered by RFC 7591 dynamic registration: `WS#<slug>` / `OAUTHCLIENT#<id>`, one
 * item each, in the workspace whose host they registered with (a client id is unique to its
 * authorization server, RFC 6749 §2.2). Public clients: no secret is issued or stored.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { keys } from '../../../platform/data/keys.ts';

const ENTITY = 'OAuthClient';
const clientKey = (workspace: string, clientId: string) => ({ pk: keys.workspacePk(workspace), sk: `OAUTHCLIENT#${clientId}` });

export interface RegisteredClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  createdAt: string;
}

export async function putClient(workspace: string, client: RegisteredClient): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...clientKey(workspace, client.clientId), entity: ENTITY, ...client },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findClient(workspace: string, clientId: string): Promise<RegisteredClient | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: clientKey(workspace, clientId), ConsistentRead: true }));
  return Item ? { clientId: Item.clientId, clientName: Item.clientName, redirectUris: Item.redirectUris, createdAt: Item.createdAt } : null;
}
