/**
 * Where `cxctl --stack NAME` acts (lib/admin/target.ts): the table and buckets the stack's outputs
 * name. The outputs themselves come from CloudFormation, which nothing offline answers; what they
 * mean is this function's, tested on the outputs the stack declares (test/cdk/operator-lifecycle.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { AdminError } from '../../lib/admin/table-client.ts';
import { areaEnvironment, bucketsOf, stackTarget } from '../../lib/admin/target.ts';

const settings = { region: 'eu-west-1', profile: 'prod' };
const outputs = {
  TableName: 'CxPortalApi-TableCD117FA1-1ABC',
  TableStreamArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/CxPortalApi-TableCD117FA1-1ABC/stream/2026',
  SigningSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CursorSigningKey255C5A33-AbCdEf',
  SearchIndexBucketName: 'cxportalapi-knowledgebanksearchindexbucketde53ba40-1x',
  SurveyExportBucketName: 'cxportalapi-surveyexportbucketeb73b5f4-2y',
};

describe('cxctl --stack', () => {
  it("acts on the stack's table and buckets, with the profile and region given, and tells the areas' code the same", () => {
    const target = stackTarget('CxPortalApi', outputs, settings);
    expect(target).toMatchObject({
      kind: 'stack',
      label: 'stack CxPortalApi in eu-west-1 (table CxPortalApi-TableCD117FA1-1ABC)',
      buckets: { searchIndex: outputs.SearchIndexBucketName, surveyExports: outputs.SurveyExportBucketName },
    });
    expect(target.store.table).toBe(outputs.TableName);
    expect(areaEnvironment(target)).toEqual({
      TABLE_NAME: outputs.TableName,
      AWS_REGION: 'eu-west-1',
      AWS_PROFILE: 'prod',
      KB_SEARCH_BUCKET: outputs.SearchIndexBucketName,
      SURVEY_EXPORT_BUCKET: outputs.SurveyExportBucketName,
    });
    target.store.db.destroy();
  });

  it('serves the table-only commands of a stack deployed before the bucket outputs, and says what the others need', () => {
    const { SearchIndexBucketName: _, ...older } = outputs;
    const target = stackTarget('CxPortalApi', older, settings);
    expect(target.buckets).toBeUndefined();
    expect(() => bucketsOf(target, 'workspace delete')).toThrow(/deployed from this version/);
    target.store.db.destroy();
  });

  it('refuses a stack that is not this service, and a --table that is not its table', () => {
    expect(() => stackTarget('Other', {}, settings)).toThrow(AdminError);
    expect(() => stackTarget('CxPortalApi', outputs, settings, 'another-table')).toThrow(/is not the table of stack CxPortalApi/);
  });
});
