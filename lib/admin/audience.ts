import { toIssues } from '../platform/http/middleware/validate-request.ts';
import { type AudienceAttribute, audienceCatalog } from '../surveys/engine/targeting.ts';
import { surveyAudienceEntity } from '../surveys/entities.ts';
import { AdminError, type TableClient, transactOrRefuse, workspaceExists } from './table-client.ts';

export function parseAudienceFile(json: unknown): AudienceAttribute[] {
  const result = audienceCatalog.safeParse(json);
  if (!result.success) {
    const issue = toIssues('file', result.error)[0];
    throw new AdminError(`Invalid audience file: ${issue?.path}: ${issue?.message}`);
  }
  return result.data.attributes;
}

/** Replaces the catalog, only if the workspace exists (one transaction). */
export async function setAudienceAttributes(
  store: TableClient,
  workspace: string,
  attributes: AudienceAttribute[],
): Promise<{ attributes: number }> {
  const catalog = {
    ...surveyAudienceEntity.keys.audience(workspace),
    entity: 'SurveyAudience',
    // A JSON string: the catalog is read whole and never queried inside.
    attributes: JSON.stringify(attributes),
    updatedAt: new Date().toISOString(),
  };
  await transactOrRefuse(
    store,
    [workspaceExists(store, workspace), { Put: { TableName: store.table, Item: catalog } }],
    `No workspace "${workspace}"`,
  );
  return { attributes: attributes.length };
}
