/** The survey publish gate: a survey version that removes or retypes a question published journey metrics follow is a breaking change. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { journeyMetricBindingEntity } from '../../lib/journeys/entities.ts';
import { adminStore, clientFor, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { metricContent, publishedScoredSurvey, scoredDefinition } from '../support/journey-metrics.ts';
import { type Api, type MadeJourney, makeJourney, publish, save } from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;

beforeAll(async () => {
  ws = await newWorkspace('journeys-gate');
  api = clientFor(ws);
});

async function publishedJourney(cells: Record<string, unknown>): Promise<MadeJourney> {
  const made = await makeJourney(api);
  const saved = await save(api, made, metricContent(cells));
  expect(saved.status, saved.text).toBe(200);
  const published = await publish(api, made);
  expect(published.status, published.text).toBe(200);
  return made;
}

/** A draft of the survey without `score` and with `stars` on 1–7, and the answer to publishing it. */
async function publishBreakingDraft(survey: { surveyId: string; versionId: string }, acknowledge = false) {
  const draft = await api.post(`/surveys/${survey.surveyId}/versions`, { body: { fromVersionId: survey.versionId } });
  expect(draft.status, draft.text).toBe(200);
  const definition = scoredDefinition();
  definition.questions = (definition.questions as { id: string; scale?: number }[])
    .filter((question) => question.id !== 'score')
    .map((question) => (question.id === 'stars' ? { ...question, scale: 7 } : question));
  const saved = await api.put(`/surveys/${survey.surveyId}/versions/${draft.body.version.id}`, {
    body: { definition },
    headers: { 'If-Match': `"${draft.body.version.revision}"` },
  });
  expect(saved.status, saved.text).toBe(200);
  return api.post(`/surveys/${survey.surveyId}/publish`, {
    body: { versionId: draft.body.version.id, ...(acknowledge ? { acknowledgeBreakingChanges: true } : {}) },
  });
}

const unbound = (changes: { kind: string; detail: string }[]) => changes.filter((change) => change.kind === 'journey_metric_unbound');

describe('survey publish gate', () => {
  it('lists the published journey metrics a survey version would unbind, and publishes once acknowledged', async () => {
    const survey = await publishedScoredSurvey(api);
    const source = (questionId: string, measure: string, pin?: string) => ({
      source: { surveyId: survey.surveyId, questionId, measure, ...(pin ? { versionId: pin } : {}) },
    });
    const follows = await publishedJourney({ a: source('score', 'nps'), b: source('stars', 'topBox'), c: source('sat', 'csat') });
    // Pinned to version 1: its numbers never change, so nothing unbinds it.
    await publishedJourney({ a: source('score', 'nps', survey.versionId) });
    // A draft binds nothing that is published.
    const draft = await makeJourney(api);
    await save(api, draft, metricContent({ a: source('score', 'nps') }));

    const refused = await publishBreakingDraft(survey);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ ok: false, error: 'breaking_changes' });
    expect(refused.body.changes.map((c: { kind: string }) => c.kind)).toEqual(
      expect.arrayContaining(['question_removed', 'scale_changed', 'journey_metric_unbound']),
    );
    expect(unbound(refused.body.changes).map(({ detail: _, ...rest }: { detail: string }) => rest)).toEqual(
      expect.arrayContaining([
        { kind: 'journey_metric_unbound', questionId: 'score', journeyId: follows.journeyId, versionId: follows.versionId },
        { kind: 'journey_metric_unbound', questionId: 'stars', journeyId: follows.journeyId, versionId: follows.versionId },
      ]),
    );
    expect(unbound(refused.body.changes)).toHaveLength(2);

    const accepted = await publishBreakingDraft(survey, true);
    expect(accepted.status, accepted.text).toBe(200);
  });

  it('follows the journey: a newer published version without the binding no longer holds the survey back', async () => {
    const survey = await publishedScoredSurvey(api);
    const made = await publishedJourney({ a: { source: { surveyId: survey.surveyId, questionId: 'score', measure: 'nps' } } });
    const next = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } });
    const nextMade = { journeyId: made.journeyId, versionId: next.body.version.id as string };
    await save(api, nextMade, metricContent({ a: { value: 10 } }));
    expect((await publish(api, nextMade)).status).toBe(200);

    const res = await publishBreakingDraft(survey);
    expect(res.status, res.text).toBe(409);
    expect(unbound(res.body.changes)).toEqual([]);
  });

  it('lets an archived journey go: its last published version no longer holds the survey back', async () => {
    const survey = await publishedScoredSurvey(api);
    const kept = await publishedJourney({ a: { source: { surveyId: survey.surveyId, questionId: 'score', measure: 'nps' } } });
    const archived = await publishedJourney({ a: { source: { surveyId: survey.surveyId, questionId: 'stars', measure: 'topBox' } } });
    const archive = await api.delete(`/journeys/${archived.journeyId}`);
    expect(archive.status, archive.text).toBe(200);

    const res = await publishBreakingDraft(survey);
    expect(res.status, res.text).toBe(409);
    // Only the journey people can still see is named; nobody can open the archived one to fix it.
    expect(unbound(res.body.changes).map((change) => (change as { journeyId?: string }).journeyId)).toEqual([kept.journeyId]);
  });

  it('ignores what an archive before this release left behind: a binding item of a journey already archived', async () => {
    const survey = await publishedScoredSurvey(api);
    const archived = await publishedJourney({ a: { source: { surveyId: survey.surveyId, questionId: 'score', measure: 'nps' } } });
    const bindingKey = journeyMetricBindingEntity.keys.binding(ws.slug, survey.surveyId, archived.journeyId);
    const { Item: left } = await adminStore().db.send(
      new GetCommand({ TableName: adminStore().table, Key: bindingKey, ConsistentRead: true }),
    );
    expect(left).toMatchObject({ journeyId: archived.journeyId, questionIds: ['score'] });
    expect((await api.delete(`/journeys/${archived.journeyId}`)).status).toBe(200);
    // Archives used to keep the item: put it back as one of them would have left it.
    await adminStore().db.send(new PutCommand({ TableName: adminStore().table, Item: left }));

    const res = await publishBreakingDraft(survey);
    expect(res.status, res.text).toBe(409);
    expect(unbound(res.body.changes)).toEqual([]);
  });
});
