/**
 * POST /people/erase (issue 39): a person's survey responses, idea votes and comments deleted and the
 * ideas they submitted anonymised, in one operation; every count exact after it; nothing of anyone
 * else touched; the old `POST /surveys/responses/erase` kept as it was.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import { adminStore, clientFor, expectErrorEnvelope, newKey, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, ideasWorkspace } from '../support/ideas.ts';
import { publishedSurvey } from '../support/surveys.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await ideasWorkspace('erase');
  api = clientFor(ws);
});

const proAnswers = { plan: 'pro', channels: ['chat', 'api'], favourite: 'api', score: 9 };
const storedIdea = async (id: string) =>
  (
    await adminStore().db.send(
      new GetCommand({ TableName: adminStore().table, Key: ideaEntity.keys.idea(ws.slug, id), ConsistentRead: true }),
    )
  ).Item;

describe('POST /people/erase', { timeout: 180_000 }, () => {
  it('erases a person everywhere, keeps counts exact and leaves everyone else', async () => {
    const email = 'Leaving.Customer@Example.com';
    const survey = await publishedSurvey(api);
    const response = await api.post(`/surveys/${survey.surveyId}/responses`, { body: { answers: proAnswers, respondent: { email } } });
    expect(response.status, response.text).toBe(201);
    const submitted = await createIdea(ws, {
      title: 'Export to Excel',
      submitter: { name: 'Leaving Customer', email, externalId: 'crm-77' },
      customerContext: { plan: 'enterprise' },
    });
    const { id: ideaId } = submitted.body.data;
    const { id: other } = (await createIdea(ws, { title: 'Dark mode' })).body.data;
    for (const idea of [ideaId, other]) {
      expect(
        (await api.post(`/ideas/${idea}/votes`, { body: { voter: { email: email.toLowerCase() }, importance: 'critical' } })).status,
      ).toBe(201);
      expect((await api.post(`/ideas/${idea}/votes`, { body: { voter: { email: 'staying@example.com' } } })).status).toBe(201);
    }
    await api.post(`/ideas/${other}/comments`, { body: { body: 'Please!', author: { email, name: 'Leaving Customer' } } });
    await api.post(`/ideas/${other}/comments`, { body: { body: 'Me too', author: { externalId: 'someone-else' } } });

    const erased = await api.post('/people/erase', { body: { email: 'leaving.customer@example.com' } });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toEqual({ ok: true, erased: { surveyResponses: 1, ideaVotes: 2, ideaComments: 1, ideas: 1 }, hasMore: false });

    for (const idea of [ideaId, other]) {
      const read = (await api.get(`/ideas/${idea}`)).body.data;
      expect([read.voteCount, read.importance]).toEqual([1, { nice: 1, important: 0, critical: 0 }]);
    }
    expect((await api.get(`/ideas/${other}/comments`)).body.comments.map((c: { body: string }) => c.body)).toEqual(['Me too']);
    expect((await api.get(`/ideas/${ideaId}`)).body.data.title).toBe('Export to Excel');
    const item = await storedIdea(ideaId);
    for (const field of ['submitter', 'submitterHash', 'submitterRefs', 'customerContext']) expect(item).not.toHaveProperty(field);
    expect((await api.get(`/surveys/${survey.surveyId}/responses`)).body.pagination.total).toBe(0);

    // Nothing is left under either identifier.
    const again = await api.post('/people/erase', { body: { email, externalId: 'crm-77' } });
    expect(again.body).toEqual({ ok: true, erased: { surveyResponses: 0, ideaVotes: 0, ideaComments: 0, ideas: 0 }, hasMore: false });
  });

  it('finds an idea submitted with both identifiers by either one', async () => {
    const { id } = (await createIdea(ws, { submitter: { email: 'both@example.com', externalId: 'both-1' } })).body.data;
    const erased = await api.post('/people/erase', { body: { externalId: 'both-1' } });
    expect(erased.body.erased.ideas).toBe(1);
    expect(await storedIdea(id)).not.toHaveProperty('submitter');
    expect((await api.post('/people/erase', { body: { email: 'both@example.com' } })).body.erased.ideas).toBe(0);
  });

  it('needs both delete permissions of what it erases, and an identifier', async () => {
    const { key } = await newKey(ws.slug, ['ideas:delete']);
    expectErrorEnvelope(
      await clientFor({ ...ws, key }).post('/people/erase', { body: { email: 'a@example.com' } }),
      403,
      'missing_permission',
    );
    expectErrorEnvelope(await api.post('/people/erase', { body: {} }), 400, 'invalid_body');
  });
});
