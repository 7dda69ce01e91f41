/**
 * The one table's physical layout, read by the CDK stack and the local sandbox alike so the two
 * can never disagree. Every item has generic `pk`/`sk` attributes; items of a workspace all live
 * under `pk = WS#<slug>`, so no query can cross tenants. `gsi1` is for lookups the operator CLI
 * needs across workspaces (a key by its id) and for alternative sort orders inside one workspace.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  gsi1: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'ttl',
} as const;
