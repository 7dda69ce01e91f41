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
    /**
     * The only attributes copied into gsi1 besides the keys: what its queries read, never a secret
     * or personal attribute (no key hash, no webhook secret, no submitter). `workspace` is what the
     * operator's key lookup by id reads; then an SOP record as GET /sops lists it, and a journey as GET /journeys lists it. A query
     * needing more fetches it from the table. DynamoDB cannot change an index's projection in place:
     * a deployed table needs the index deleted and created again (deploys: docs/cxctl.md, "Index
     * changes"), the sandbox `cxctl migrate` (migration 001 rebuilds it in DynamoDB Local).
     * test/cdk and test/integration/index-projection.test.ts hold it to this.
     */
    nonKeyAttributes: [
      'workspace',
      'id',
      'serial',
      'status',
      'titleEn',
      'titleAr',
      'type',
      'departmentId',
      'descriptionEn',
      'descriptionAr',
      'steps',
      'escalationLevel1',
      'escalationLevel2',
      'escalationLevel3',
      'createdAt',
      'updatedAt',
      'submittedAt',
      'publishedAt',
      'approvedBy',
      // The journey list (GET /journeys): a journey's metadata, and the counter's totals; `entity`
      // lets the `kind` filter keep the counter.
      'entity',
      'kind',
      'parentJourneyId',
      'stageId',
      'publishedVersionId',
      'versionCount',
      'version',
      'archivedAt',
      'macroCount',
      'microCount',
    ],
  },
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'ttl',
} as const;
