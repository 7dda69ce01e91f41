/** The OpenAPI document describes every Journeys operation, its errors and the content schema. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/fixtures.ts';
import { inlineRefs } from '../support/openapi-refs.ts';

let doc: any;

beforeAll(async () => {
  doc = inlineRefs((await call('GET', '/openapi.json')).body);
});

const V = '/journeys/{journeyId}/versions/{versionId}';
// method, path, operationId, permission, extra error statuses beyond 400/401/403/404/429/502 (415: takes a body)
const OPERATIONS = [
  ['get', '/journeys', 'listJourneys', 'journeys:read', []],
  ['post', '/journeys', 'createJourney', 'journeys:write', ['409', '415']],
  ['post', '/journeys/validate', 'validateJourneyContent', 'journeys:read', ['413', '415']],
  ['get', '/journeys/{journeyId}', 'getJourney', 'journeys:read', []],
  ['patch', '/journeys/{journeyId}', 'updateJourney', 'journeys:write', ['409', '415']],
  ['delete', '/journeys/{journeyId}', 'archiveJourney', 'journeys:delete', ['409']],
  ['post', '/journeys/{journeyId}/micro-journeys', 'createMicroJourney', 'journeys:write', ['409', '415']],
  ['get', '/journeys/{journeyId}/versions', 'listJourneyVersions', 'journeys:read', []],
  ['post', '/journeys/{journeyId}/versions', 'createJourneyVersion', 'journeys:write', ['409', '415']],
  ['get', V, 'getJourneyVersion', 'journeys:read', []],
  ['patch', V, 'updateJourneyVersion', 'journeys:write', ['409', '415']],
  ['put', `${V}/content`, 'saveJourneyVersionContent', 'journeys:write', ['409', '413', '415']],
  ['post', `${V}/publish`, 'publishJourneyVersion', 'journeys:write', ['409']],
  ['delete', V, 'deleteJourneyVersion', 'journeys:write', ['409']],
  ['get', `${V}/diff`, 'diffJourneyVersions', 'journeys:read', []],
] as const;

describe('OpenAPI: Journeys', () => {
  it.each(OPERATIONS)('%s %s is %s, needs %s, and lists its errors', (method, path, operationId, permission, extra) => {
    const op = doc.paths[path][method];
    expect(op.operationId).toBe(operationId);
    expect(op.tags).toEqual(['Journeys']);
    expect(op['x-permissions']).toEqual([permission]);
    expect(op.responses['200'].content['application/json'].schema).toBeDefined();
    const errors = Object.keys(op.responses).filter((status) => status !== '200');
    expect(errors.sort()).toEqual(['400', '401', '403', '404', '429', '502', '503', ...extra].sort());
  });

  it('documents the content schema: stages, rows of every type, cells keyed <rowId>:<stageId>', () => {
    const body = doc.paths[`${V}/content`].put.requestBody.content['application/json'].schema;
    const content = body.properties.content;
    expect(content.required.sort()).toEqual(['cells', 'rows', 'schema', 'stages']);
    expect(content.properties.stages.items.properties.id.pattern).toBe('^[A-Za-z0-9_-]{1,64}$');
    const rowTypes = content.properties.rows.items.oneOf.map((row: any) => row.properties.type.const);
    expect(rowTypes.sort()).toEqual(['channels', 'emotion', 'items', 'links', 'metric', 'text']);
    expect(content.properties.cells.propertyNames.pattern).toContain(':');
  });

  it('documents If-Match as required on save and publish', () => {
    for (const op of [doc.paths[`${V}/content`].put, doc.paths[`${V}/publish`].post]) {
      expect(op.parameters.find((p: any) => p.name === 'If-Match')?.required).toBe(true);
    }
    expect(doc.paths[V].patch.parameters.find((p: any) => p.name === 'If-Match')?.required).toBe(false);
  });
});
