/**
 * The workspace's survey designs: one item (`SURVEYDESIGNS`), one attribute per design
 * (`design_<id>`, record.ts designAttribute) and a count against the limit. Round trips: list 1,
 * create 1 (a transaction, with the Idempotency-Key's record when one is sent), change 1.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { isConditionFailure } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { TransactionCancelledError, type TransactWrite } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { ConflictError } from '../../platform/errors.ts';
import { surveyDesignsEntity } from '../entities.ts';
import { designNotFound } from '../errors.ts';
import { designAttribute, designsOf, newSurveyId, type StoredDesign, toDesign } from '../record.ts';
import { type DesignPatch, SURVEY_LIMITS, type SurveyDesign } from '../schemas.ts';

const DESIGNS_ENTITY = 'SurveyDesigns';

/** The fields a PATCH may change; no other name of the body reaches the expression. */
const DESIGN_FIELDS = ['name', 'primaryColor', 'backgroundColor', 'logoUrl', 'font'] as const;

/** The raw designs item, for an access pattern that reads it beside others (one BatchGetItem). */
export const designsKey = (workspace: string) => surveyDesignsEntity.keys.designs(workspace);

export async function listDesigns(workspace: string): Promise<SurveyDesign[]> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: designsKey(workspace), ConsistentRead: true }));
  return designsOf(Item);
}

/** Adds `design` unless there already is one under its attribute: how a first survey brings the default design. */
export function addDesignOnce(workspace: string, design: StoredDesign): TransactWrite {
  return {
    Update: {
      TableName: tableName,
      Key: designsKey(workspace),
      ...update().set('entity', DESIGNS_ENTITY).setIfAbsent(designAttribute(design.id), design).build(),
    },
  };
}

/**
 * Adds a design as one attribute of the designs item, counted against the limit: one transaction
 * (with the Idempotency-Key's record when one is sent).
 */
export async function createDesign(
  workspace: string,
  input: Omit<StoredDesign, 'id' | 'isDefault' | 'createdAt' | 'updatedAt'>,
  idempotency: IdempotentRequest | undefined,
): Promise<{ design: SurveyDesign; replayed: boolean }> {
  const now = new Date().toISOString();
  const design: StoredDesign = { ...input, id: newSurveyId(), isDefault: false, createdAt: now, updatedAt: now };
  const added = update().set('entity', DESIGNS_ENTITY).set(designAttribute(design.id), design).add('designCount', 1);
  try {
    const { response, replayed } = await createOnce(
      workspace,
      {
        designs: {
          Update: {
            TableName: tableName,
            Key: designsKey(workspace),
            ...added.build({
              expression: 'attribute_not_exists(designCount) OR designCount < :max',
              values: { ':max': SURVEY_LIMITS.designs },
            }),
          },
        },
      },
      toDesign(design),
      idempotency,
    );
    return { design: response, replayed };
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('designs')) {
      throw new ConflictError('design_limit', `A workspace has at most ${SURVEY_LIMITS.designs} designs besides the default`);
    }
    throw error;
  }
}

/** Changes a design's fields in one conditional UpdateItem; `null` removes an optional one. */
export async function updateDesign(workspace: string, designId: string, patch: DesignPatch): Promise<SurveyDesign> {
  const attribute = designAttribute(designId);
  const changed = update()
    .set([attribute, 'updatedAt'], new Date().toISOString())
    .patch(patch, DESIGN_FIELDS, { under: [attribute] });
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: designsKey(workspace),
        ...changed.build({ expression: `attribute_exists(${changed.placeholder(attribute)})` }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toDesign((Attributes as Record<string, unknown>)[attribute] as StoredDesign);
  } catch (error) {
    if (isConditionFailure(error)) throw designNotFound();
    throw error;
  }
}
