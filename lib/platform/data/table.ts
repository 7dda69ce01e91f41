/**
 * The one table's physical layout, read by the CDK stack and the local sandbox alike so the two
 * can never disagree. Every item has generic `pk`/`sk` attributes; items of a workspace all live
 * under `pk = WS#<slug>`, so no query can cross tenants. `gsi1` is for lookups the operator CLI
 * needs across workspaces (a key by its id) and for alternative sort orders inside one workspace.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  gsi1: {
    name: 'gsi1',
    partitionKey: 'gsi1pk',
    sortKey: 'gsi1sk',
  },
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'ttl',
} as const;

/**
 * The only attributes copied into gsi1 besides the keys: what its queries read, as each entity
 * declares (entity.ts `indexAttributes`), in the order the entities are listed (lib/entities.ts),
 * each once. Never a secret or personal attribute (no key hash, no webhook secret, no submitter). A
 * query needing more fetches it from the table. DynamoDB cannot change an index's projection in place:
 * a deployed table needs the index deleted and created again (deploys: docs/cxctl.md, "Index
 * changes"), the sandbox `cxctl migrate` (migration 001 rebuilds it in DynamoDB Local).
 * test/cdk and test/integration/index-projection.test.ts hold it to this.
 */
export function gsi1Projection(entities: readonly { indexAttributes?: readonly string[] }[]): string[] {
  return [...new Set(entities.flatMap((entity) => entity.indexAttributes ?? []))];
}
