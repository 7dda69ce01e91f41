/**
 * GET /surveys/{id}/summary over HTTP: the aggregator, fed by the real table stream, keeps the day
 * buckets equal to a recount of the stored responses through submits, continuations, finishes and
 * deletions, visible within 5 s; ranges, versions, errors, permissions and round trips.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_CALLS,
  clientFor,
  dynamoDbCalls,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  type TestWorkspace,
  useSandboxEnvironment,
} from '../support/fixtures.ts';
import { continueResponse, deleteResponse, type StoredResponse, storedResponses, submitResponse } from '../support/survey-responses.ts';
import { surveyWithDefinition } from '../support/surveys.ts';

const VISIBLE_WITHIN_MS = 5_000;

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let surveyId: string;
let versionId: string;
let other: TestWorkspace;

beforeAll(async () => {
  ws = await newWorkspace('surveys-summary');
  api = clientFor(ws);
  other = await newWorkspace('surveys-summary-other');
  ({ surveyId, versionId } = await surveyWithDefinition(api));
  const published = await api.post(`/surveys/${surveyId}/publish`, { body: { versionId } });
  expect(published.status, published.text).toBe(200);
});

/** The summary's numbers, recounted from the responses the table holds now (independently of lib/surveys/summary). */
function recount(responses: StoredResponse[]) {
  const answered = (r: StoredResponse, q: string) => r.path.includes(q) && r.answers[q] !== undefined;
  const questions = ['plan', 'channels', 'favourite', 'score', 'why-low'].map((questionId) => ({
    questionId,
    shown: responses.filter((r) => r.path.includes(questionId)).length,
    answered: responses.filter((r) => answered(r, questionId)).length,
    droppedOff: responses.filter((r) => r.status === 'partial' && r.path.at(-1) === questionId).length,
  }));
  const scores = responses.filter((r) => answered(r, 'score')).map((r) => r.answers.score as number);
  const plans = responses.filter((r) => answered(r, 'plan')).map((r) => r.answers.plan);
  return {
    started: responses.length,
    finished: responses.filter((r) => r.status === 'finished').length,
    questions,
    plan: ['free', 'pro', 'team'].map((optionId) => ({ optionId, count: plans.filter((p) => p === optionId).length })),
    nps: {
      promoters: scores.filter((s) => s >= 9).length,
      passives: scores.filter((s) => s === 7 || s === 8).length,
      detractors: scores.filter((s) => s <= 6).length,
    },
  };
}

function shapeOf(summary: any) {
  const byId = (id: string) => summary.questions.find((q: any) => q.questionId === id);
  return {
    started: summary.responses.started,
    finished: summary.responses.finished,
    questions: ['plan', 'channels', 'favourite', 'score', 'why-low'].map((questionId) => {
      const q = byId(questionId);
      return { questionId, shown: q?.shown ?? 0, answered: q?.answered ?? 0, droppedOff: q?.droppedOff ?? 0 };
    }),
    plan: byId('plan')?.options,
    nps: { promoters: byId('score')?.nps.promoters, passives: byId('score')?.nps.passives, detractors: byId('score')?.nps.detractors },
  };
}

/** Polls the summary until it equals the recount; fails past 5 s. */
async function expectSummaryToMatchRecount(query = ''): Promise<any> {
  const expected = recount(await storedResponses(ws.slug, surveyId));
  const started = Date.now();
  let last: any;
  while (Date.now() - started < VISIBLE_WITHIN_MS) {
    const res = await api.get(`/surveys/${surveyId}/summary${query}`);
    expect(res.status, res.text).toBe(200);
    last = res.body.summary;
    if (JSON.stringify(shapeOf(last)) === JSON.stringify(expected)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(shapeOf(last)).toEqual(expected);
  return last;
}

const base = () => ({ surveyId, versionId });

describe('survey summary', () => {
  it('equals a recount of the stored responses after submits, continuations, finishes and deletions', async () => {
    const empty = await api.get(`/surveys/${surveyId}/summary`);
    expect(empty.status).toBe(200);
    expect(empty.body.summary).toMatchObject({
      surveyId,
      versionId,
      responses: { started: 0, finished: 0, completionRate: null, secondsToFinish: { p50: null, p90: null } },
      questions: [],
    });

    const promoter = await submitResponse(ws.slug, {
      ...base(),
      status: 'finished',
      answers: { plan: 'pro', channels: ['chat', 'api'], favourite: 'chat', score: 9 },
      path: ['plan', 'channels', 'favourite', 'score'],
      secondsToFinish: 42,
    });
    let partial = await submitResponse(ws.slug, { ...base(), status: 'partial', answers: { plan: 'free' }, path: ['plan', 'channels'] });
    await submitResponse(ws.slug, { ...base(), status: 'finished', answers: { plan: 'team' }, path: ['plan'], secondsToFinish: 8 });
    const detractor = await submitResponse(ws.slug, {
      ...base(),
      status: 'finished',
      answers: { plan: 'pro', channels: ['mail'], favourite: 'mail', score: 3, 'why-low': 'Too slow, call me on 555-0100' },
      path: ['plan', 'channels', 'favourite', 'score', 'why-low'],
      secondsToFinish: 300,
    });
    await expectSummaryToMatchRecount();

    // Continue the partial one twice, finishing it; delete the detractor.
    partial = await continueResponse(ws.slug, partial, { answers: { channels: ['chat'] }, path: ['plan', 'channels', 'favourite'] });
    partial = await continueResponse(ws.slug, partial, {
      status: 'finished',
      answers: { favourite: 'chat', score: 7 },
      path: ['plan', 'channels', 'favourite', 'score'],
      secondsToFinish: 95,
    });
    await deleteResponse(ws.slug, detractor);
    const summary = await expectSummaryToMatchRecount();

    expect(summary.responses).toEqual({ started: 3, finished: 3, completionRate: 1, secondsToFinish: { p50: 42, p90: 95 } });
    const score = summary.questions.find((q: any) => q.questionId === 'score');
    expect(score).toMatchObject({
      type: 'nps',
      nps: { promoters: 1, passives: 1, detractors: 0, score: 50, marginOfError95: 98 },
      scores: {
        distribution: [
          { value: 7, count: 1 },
          { value: 9, count: 1 },
        ],
        mean: 8,
        median: 8,
      },
    });
    // No answer text and no respondent anywhere in the summary.
    expect(JSON.stringify(summary)).not.toMatch(/555-0100|Too slow|respondent@example\.com/);
    expect(promoter.id).toBeTruthy();
  });

  it('equals the recount through the responses API: submit, continue, finish, delete and erase', async () => {
    const { surveyId: viaApi, versionId: apiVersion } = await surveyWithDefinition(api);
    expect((await api.post(`/surveys/${viaApi}/publish`, { body: { versionId: apiVersion } })).status).toBe(200);
    const submit = async (body: Record<string, unknown>) => {
      const res = await api.post(`/surveys/${viaApi}/responses`, { body });
      expect(res.status, res.text).toBe(201);
      return { id: res.body.response.id as string, etag: res.headers.get('etag') as string };
    };
    await submit({ answers: { plan: 'team' } });
    await submit({ answers: { plan: 'pro', channels: ['chat', 'api'], favourite: 'chat', score: 10 } });
    const open = await submit({ answers: { plan: 'free' }, finished: false });
    const continued = await api.patch(`/surveys/${viaApi}/responses/${open.id}`, {
      body: { answers: { channels: ['mail'] } },
      headers: { 'If-Match': open.etag },
    });
    expect(continued.status, continued.text).toBe(200);
    const erased = await submit({
      answers: { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 8 },
      respondent: { externalId: 'cust-42' },
    });
    const deleted = await submit({ answers: { plan: 'free', channels: ['api'], favourite: 'api', score: 9 } });

    const expectRecount = async () => {
      const expected = recount(await storedResponses(ws.slug, viaApi));
      const deadline = Date.now() + VISIBLE_WITHIN_MS;
      let summary: any;
      do {
        summary = (await api.get(`/surveys/${viaApi}/summary`)).body.summary;
        if (JSON.stringify(shapeOf(summary)) === JSON.stringify(expected)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      } while (Date.now() < deadline);
      expect(shapeOf(summary)).toEqual(expected);
      return summary;
    };
    expect((await expectRecount()).responses).toMatchObject({ started: 5, finished: 4 });

    const finished = await api.patch(`/surveys/${viaApi}/responses/${open.id}`, {
      body: { answers: { favourite: 'mail', score: 4, 'why-low': 'Too slow' }, finished: true },
      headers: { 'If-Match': continued.headers.get('etag') as string },
    });
    expect(finished.status, finished.text).toBe(200);
    expect((await api.delete(`/surveys/${viaApi}/responses/${deleted.id}`)).status).toBe(200);
    const erasure = await api.post('/surveys/responses/erase', { body: { externalId: 'cust-42' } });
    expect(erasure.body).toMatchObject({ ok: true, erased: 1 });
    expect(erased.id).not.toBe(deleted.id);

    const summary = await expectRecount();
    expect(summary.responses).toMatchObject({ started: 3, finished: 3, completionRate: 1 });
    expect(summary.questions.find((q: any) => q.questionId === 'score').nps).toMatchObject({
      promoters: 1,
      passives: 0,
      detractors: 1,
      score: 0,
    });
  });

  it('counts a response on the UTC day it was started, within from…to', async () => {
    const { surveyId: otherSurvey, versionId: otherVersion } = await surveyWithDefinition(api);
    await api.post(`/surveys/${otherSurvey}/publish`, { body: { versionId: otherVersion } });
    const started = (createdAt: string) =>
      submitResponse(ws.slug, {
        surveyId: otherSurvey,
        versionId: otherVersion,
        status: 'partial',
        answers: { plan: 'free' },
        path: ['plan'],
        createdAt,
      });
    await started('2026-03-01T23:59:59.000Z');
    await started('2026-03-02T00:00:00.000Z');
    await started('2026-03-03T12:00:00.000Z');
    const read = (query: string) => api.get(`/surveys/${otherSurvey}/summary${query}`);
    const deadline = Date.now() + VISIBLE_WITHIN_MS;
    while ((await read('')).body.summary.responses.started < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await read('')).body.summary.responses.started).toBe(3);
    expect((await read('?from=2026-03-02&to=2026-03-02')).body.summary).toMatchObject({
      from: '2026-03-02',
      to: '2026-03-02',
      responses: { started: 1, finished: 0 },
    });
    expect((await read('?from=2026-03-02')).body.summary.responses.started).toBe(2);
    expect((await read(`?to=2026-03-01&versionId=${otherVersion}`)).body.summary.responses.started).toBe(1);
    expect((await read('?versionId=all')).body.summary).toMatchObject({ versionId: 'all', responses: { started: 3 } });
  });

  it("gives the journeys area each day's score distribution from the same buckets (readDailyScores)", async () => {
    useSandboxEnvironment();
    const { readDailyScores } = await import('../../lib/surveys/summary/question-scores.ts');
    const { surveyId: scored, versionId: scoredVersion } = await surveyWithDefinition(api);
    await api.post(`/surveys/${scored}/publish`, { body: { versionId: scoredVersion } });
    const answer = (createdAt: string, score: number) =>
      submitResponse(ws.slug, {
        surveyId: scored,
        versionId: scoredVersion,
        status: 'finished',
        answers: { plan: 'pro', channels: ['chat'], favourite: 'chat', score },
        path: ['plan', 'channels', 'favourite', 'score'],
        createdAt,
      });
    await answer('2026-05-01T08:00:00.000Z', 10);
    await answer('2026-05-01T09:00:00.000Z', 10);
    await answer('2026-05-02T09:00:00.000Z', 4);
    await answer('2026-05-03T09:00:00.000Z', 8);
    const query = { surveyId: scored, questionId: 'score', from: '2026-05-01', to: '2026-05-02' };
    const deadline = Date.now() + VISIBLE_WITHIN_MS;
    let days = await readDailyScores(ws.slug, query);
    while (days.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      days = await readDailyScores(ws.slug, query);
    }
    expect(days).toEqual([
      { day: '2026-05-01', counts: { '10': 2 } },
      { day: '2026-05-02', counts: { '4': 1 } },
    ]);
    expect(await readDailyScores(other.slug, query)).toEqual([]);
  });

  it('costs auth + one round trip (the survey and the buckets, read together)', async () => {
    await api.get(`/surveys/${surveyId}/summary`);
    const res = await api.get(`/surveys/${surveyId}/summary`);
    expect(res.status).toBe(200);
    expect(dynamoDbCalls(res) - AUTH_CALLS).toBe(2);
  });

  it('answers 404 for an unknown survey, another workspace, or a version not of this survey; 400 for a bad range', async () => {
    expectErrorEnvelope(await api.get('/surveys/0195f2a0-7c1e-7000-8000-000000000001/summary'), 404, 'not_found');
    expectErrorEnvelope(await clientFor(other).get(`/surveys/${surveyId}/summary`), 404, 'not_found');
    expectErrorEnvelope(await api.get(`/surveys/${surveyId}/summary?versionId=0195f2a0-7c1e-7000-8000-000000000001`), 404, 'not_found');
    expectErrorEnvelope(await api.get(`/surveys/${surveyId}/summary?from=2026-03-02&to=2026-03-01`), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(`/surveys/${surveyId}/summary?from=2026-3-1`), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(`/surveys/${surveyId}/summary?versionId=latest`), 400, 'invalid_query');
  });

  it('needs surveys:read only, and nothing less', async () => {
    const reader = await newKey(ws.slug, ['surveys:read']);
    expect((await clientFor({ host: ws.host, key: reader.key }).get(`/surveys/${surveyId}/summary`)).status).toBe(200);
    const writer = await newKey(ws.slug, ['surveys:write']);
    expectErrorEnvelope(await clientFor({ host: ws.host, key: writer.key }).get(`/surveys/${surveyId}/summary`), 403, 'missing_permission');
  });
});
