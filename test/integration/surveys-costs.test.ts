/** What each survey operation costs in DynamoDB round trips (X-Sandbox-DynamoDB-Calls), as docs/surveys.md states. */
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CALLS, clientFor, dynamoDbCalls, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { routedDefinition, surveyWithDefinition } from '../support/surveys.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await newWorkspace('surveys-costs');
  api = clientFor(ws);
});

describe('survey round trips', () => {
  it('costs what docs/surveys.md says, operation by operation', async () => {
    const costs: Record<string, number> = {};
    const measure = async (name: string, request: Promise<{ status: number; text: string; headers: Headers }>) => {
      const res = await request;
      expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
      costs[name] = dynamoDbCalls(res as never) - AUTH_CALLS;
      return res as unknown as { body: any };
    };
    // The key's first request of a window also starts its rate-limit counter: not an operation's cost.
    await api.get('/surveys');
    const created = await measure('create', api.post('/surveys', { body: { name: 'Costs' } }));
    const surveyId = created.body.survey.id;
    const versionId = created.body.version.id;
    const path = `/surveys/${surveyId}/versions/${versionId}`;
    await measure('save version', api.put(path, { body: { definition: routedDefinition() }, headers: { 'If-Match': '"1"' } }));
    await measure('read', api.get(`/surveys/${surveyId}`));
    await measure('list', api.get('/surveys'));
    await measure('read version', api.get(path));
    await measure('simulate', api.post(`${path}/simulate`, { body: { answers: { plan: 'free' } } }));
    await measure('validate', api.post('/surveys/validate', { body: { definition: routedDefinition() } }));
    await measure('patch', api.patch(`/surveys/${surveyId}`, { body: { name: 'Renamed' } }));
    const design = await measure('new design', api.post('/surveys/designs', { body: { name: 'Brand', primaryColor: '#0B5FFF' } }));
    await measure('change design', api.patch(`/surveys/designs/${design.body.design.id}`, { body: { name: 'Brand 2' } }));
    await measure('designs', api.get('/surveys/designs'));
    await measure('audience attributes', api.get('/surveys/audience-attributes'));
    await measure('patch with designId', api.patch(`/surveys/${surveyId}`, { body: { designId: design.body.design.id } }));
    await measure('publish (first)', api.post(`/surveys/${surveyId}/publish`, { body: { versionId } }));
    const draft = await measure('new version (from the published one)', api.post(`/surveys/${surveyId}/versions`, { body: {} }));
    const copy = await measure('new version (named)', api.post(`/surveys/${surveyId}/versions`, { body: { fromVersionId: versionId } }));
    await measure('discard version', api.delete(`/surveys/${surveyId}/versions/${copy.body.version.id}`));
    await measure('publish (replacing one)', api.post(`/surveys/${surveyId}/publish`, { body: { versionId: draft.body.version.id } }));
    await measure('close', api.post(`/surveys/${surveyId}/close`));
    await measure('archive', api.delete(`/surveys/${surveyId}`));
    expect(costs).toEqual({
      create: 2,
      'save version': 1,
      read: 1,
      list: 1,
      'read version': 1,
      simulate: 1,
      validate: 0,
      patch: 1,
      'new design': 1,
      'change design': 1,
      designs: 1,
      'audience attributes': 1,
      'patch with designId': 2,
      'publish (first)': 2,
      'new version (from the published one)': 3,
      'new version (named)': 2,
      'discard version': 1,
      'publish (replacing one)': 3,
      close: 2,
      archive: 2,
    });
  });
});

it('keeps a full version read under the response limit', async () => {
  const { surveyId, versionId } = await surveyWithDefinition(api);
  const res = await api.get(`/surveys/${surveyId}/versions/${versionId}`);
  expect(res.text.length).toBeLessThan(6 * 1024 * 1024);
});
