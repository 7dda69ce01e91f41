/**
 * GET …/versions/{versionId}/metrics over HTTP: bound cells computed from the surveys' day buckets
 * (written as the summary's aggregator writes them), over a range, per period, at a counted cost.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { SurveyDefinition } from '../../lib/surveys/engine/definition.ts';
import { AUTH_CALLS, clientFor, dynamoDbCalls, expectErrorEnvelope, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { metricContent, publishedScoredSurvey, scoredDefinition, writeDayBuckets } from '../support/journey-metrics.ts';
import { type Api, insideOneRateLimitWindow, type MadeJourney, makeJourney, save } from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;
let survey: { surveyId: string; versionId: string };
let made: MadeJourney;

const metricsPath = (query = '') => `/journeys/${made.journeyId}/versions/${made.versionId}/metrics${query}`;
const MARCH = '?from=2026-03-01&to=2026-03-31';

beforeAll(async () => {
  ws = await newWorkspace('journeys-metrics');
  api = clientFor(ws);
  survey = await publishedScoredSurvey(api);
  // Five answers in March (NPS: 3 promoters, 1 passive, 1 detractor → 40), one in April (outside the range).
  await writeDayBuckets(ws.slug, survey, scoredDefinition() as SurveyDefinition, {
    '2026-03-02': [
      { score: 10, sat: 5, stars: 5, effort: 2, age: 30 },
      { score: 9, sat: 4, stars: 4, effort: 3, age: 40 },
    ],
    '2026-03-04': [{ score: 9, sat: 2, stars: 5, effort: 6, age: 50 }],
    '2026-03-10': [
      { score: 7, sat: 5, stars: 3, effort: 1 },
      { score: 3, sat: 1, stars: 1, effort: 7 },
    ],
    '2026-04-02': [{ score: 0, sat: 1, stars: 1, effort: 7, age: 99 }],
  });
  made = await makeJourney(api);
  const source = (questionId: string, measure: string) => ({ surveyId: survey.surveyId, questionId, measure });
  const saved = await save(
    api,
    made,
    metricContent({
      nps: { source: source('score', 'nps'), target: 30 },
      csat: { source: source('sat', 'csat'), target: 80, unit: '%' },
      stars: { source: source('stars', 'topBox') },
      effort: { source: source('effort', 'ces'), target: 3, goodDirection: 'down' },
      age: { source: source('age', 'mean') },
      typed: { value: 12, target: 10 },
    }),
  );
  expect(saved.status, saved.text).toBe(200);
});

const metricOf = (body: { metrics: { cellKey: string }[] }, stage: string) => body.metrics.find((m) => m.cellKey === `m:${stage}`) as any;

describe('GET …/metrics', () => {
  it('computes each bound cell over the range, as the summary formulas do, with its target', async () => {
    const res = await api.get(`${metricsPath(MARCH)}&interval=month`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ok: true, from: '2026-03-01', to: '2026-03-31', interval: 'month' });
    expect(res.body.metrics.map((m: { cellKey: string }) => m.cellKey)).toEqual(['m:nps', 'm:csat', 'm:stars', 'm:effort', 'm:age']);
    // NPS: (3 − 1) / 5 = 40; its margin: 1.96 × s/√5 × 100 with s² the sample variance of +1,+1,+1,0,−1 (3.2 / 4 = 0.8): 78.4.
    expect(metricOf(res.body, 'nps')).toMatchObject({ stageId: 'nps', measure: 'nps', value: 40, n: 5, target: 30, meetsTarget: true });
    expect(metricOf(res.body, 'nps').marginOfError95).toBe(78.4);
    // CSAT: 4 or 5 on 1–5 → 3 of 5 = 60 %, under its 80 % target.
    expect(metricOf(res.body, 'csat')).toMatchObject({ value: 60, n: 5, target: 80, meetsTarget: false });
    // Top box of a 1–5 rating: 5 → 2 of 5.
    expect(metricOf(res.body, 'stars')).toMatchObject({ value: 40, n: 5, target: null, meetsTarget: null });
    // CES is the mean (19 / 5 = 3.8); lower is better, so 3.8 misses a target of 3.
    expect(metricOf(res.body, 'effort')).toMatchObject({ value: 3.8, n: 5, meetsTarget: false });
    // Mean of a number question, over those who answered it.
    expect(metricOf(res.body, 'age')).toMatchObject({ value: 40, n: 3 });
    expect(metricOf(res.body, 'nps').series).toEqual([{ start: '2026-03-01', value: 40, n: 5 }]);
  });

  it('gives a weekly series, weeks from Monday, with empty weeks as null', async () => {
    const res = await api.get(metricsPath('?from=2026-03-01&to=2026-03-22&interval=week'));
    expect(res.status, res.text).toBe(200);
    expect(metricOf(res.body, 'nps').series).toEqual([
      { start: '2026-02-23', value: null, n: 0 },
      { start: '2026-03-02', value: 100, n: 3 },
      { start: '2026-03-09', value: -50, n: 2 },
      { start: '2026-03-16', value: null, n: 0 },
    ]);
    const daily = await api.get(metricsPath('?from=2026-03-02&to=2026-03-04&interval=day'));
    expect(metricOf(daily.body, 'csat').series).toEqual([
      { start: '2026-03-02', value: 100, n: 2 },
      { start: '2026-03-03', value: null, n: 0 },
      { start: '2026-03-04', value: 0, n: 1 },
    ]);
  });

  it('answers value null and n 0 where nobody answered in the range', async () => {
    const res = await api.get(metricsPath('?from=2025-01-01&to=2025-01-31'));
    expect(res.status, res.text).toBe(200);
    expect(metricOf(res.body, 'nps')).toMatchObject({ value: null, n: 0, marginOfError95: null, meetsTarget: null });
  });

  it('costs auth, one GetItem of the version and one Query per bound question, never a response', async () => {
    await insideOneRateLimitWindow(api);
    const res = await api.get(metricsPath(MARCH));
    expect(res.status, res.text).toBe(200);
    expect(dynamoDbCalls(res)).toBe(AUTH_CALLS + 1 + 5);
  });

  it('defaults to the last 90 days, and refuses ranges out of order, too wide or malformed', async () => {
    const res = await api.get(metricsPath());
    expect(res.status, res.text).toBe(200);
    const days = (Date.parse(res.body.to) - Date.parse(res.body.from)) / 86_400_000;
    expect(days).toBe(89);
    expect(res.body.to).toBe(new Date().toISOString().slice(0, 10));
    expect(res.body.interval).toBe('week');
    expectErrorEnvelope(await api.get(metricsPath('?from=2026-03-05&to=2026-03-01')), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(metricsPath('?from=2020-01-01&to=2026-03-01')), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(metricsPath('?from=2020-01-01')), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(metricsPath('?from=March')), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(metricsPath('?interval=year')), 400, 'invalid_query');
  });

  it("is a 404 for another workspace's journey, and never reads its surveys", async () => {
    const other = clientFor(await newWorkspace('journeys-metrics-other'));
    expectErrorEnvelope(await other.get(metricsPath(MARCH)), 404, 'not_found');
    // A journey of theirs bound to our survey id sees nothing of our answers.
    const theirs = await makeJourney(other);
    await save(other, theirs, metricContent({ nps: { source: { surveyId: survey.surveyId, questionId: 'score', measure: 'nps' } } }));
    const res = await other.get(`/journeys/${theirs.journeyId}/versions/${theirs.versionId}/metrics${MARCH}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.metrics[0]).toMatchObject({ value: null, n: 0 });
  });

  it('draws the computed values on the map picture, with the range in its header', async () => {
    const res = await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}/map.svg${MARCH}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('>NPS 40<');
    expect(res.text).toContain('target 30 · n=5');
    expect(res.text).toContain('Metrics 2026-03-01 – 2026-03-31');
    expect(res.text).toContain('>12<');
  });
});
