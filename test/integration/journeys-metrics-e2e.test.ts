/**
 * From a survey with responses to a journey stage showing its NPS: responses submitted over HTTP, the
 * summary's aggregator folding them from the table stream, and the journey metrics equal to the
 * survey summary over the same range (the walkthrough of docs/journeys.md, as a test).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { metricContent, publishedScoredSurvey } from '../support/journey-metrics.ts';
import { type Api, type MadeJourney, makeJourney, save } from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;
let survey: { surveyId: string; versionId: string };
let made: MadeJourney;
const today = new Date().toISOString().slice(0, 10);
const RANGE = `?from=${today}&to=${today}`;

const ANSWERS = [
  { score: 10, sat: 5, effort: 2 },
  { score: 9, sat: 4, effort: 1 },
  { score: 8, sat: 3, effort: 4 },
  { score: 6, sat: 2, effort: 6 },
  { score: 10, sat: 5, effort: 2 },
  { score: 2, sat: 1, effort: 7 },
  { score: 9 },
];

beforeAll(async () => {
  ws = await newWorkspace('journeys-metrics-e2e');
  api = clientFor(ws);
  survey = await publishedScoredSurvey(api);
  for (const answers of ANSWERS) {
    const res = await api.post(`/surveys/${survey.surveyId}/responses`, { body: { answers } });
    expect(res.status, res.text).toBeLessThan(300);
  }
  made = await makeJourney(api);
  const source = (questionId: string, measure: string) => ({ source: { surveyId: survey.surveyId, questionId, measure } });
  const saved = await save(
    api,
    made,
    metricContent({ nps: { ...source('score', 'nps'), target: 20 }, csat: source('sat', 'csat'), ces: source('effort', 'ces') }),
  );
  expect(saved.status, saved.text).toBe(200);
}, 60_000);

/** The summary once the aggregator has counted every response (it follows the stream within seconds). */
async function countedSummary() {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await api.get(`/surveys/${survey.surveyId}/summary${RANGE}`);
    expect(res.status, res.text).toBe(200);
    if (res.body.summary.responses.started === ANSWERS.length || Date.now() > deadline) return res.body.summary;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('journey metrics from submitted responses', () => {
  it('equal the survey summary for the same range, and the map shows the stage NPS', async () => {
    const summary = await countedSummary();
    expect(summary.responses.started).toBe(ANSWERS.length);
    const question = (id: string) => summary.questions.find((q: { questionId: string }) => q.questionId === id);

    const res = await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}/metrics${RANGE}&interval=day`);
    expect(res.status, res.text).toBe(200);
    const metric = (stage: string) => res.body.metrics.find((m: { stageId: string }) => m.stageId === stage);
    // 4 promoters, 1 passive, 2 detractors of 7: NPS 28.6.
    expect(metric('nps')).toMatchObject({
      value: question('score').nps.score,
      n: 7,
      marginOfError95: question('score').nps.marginOfError95,
    });
    expect(metric('nps').value).toBeCloseTo((100 * (4 - 2)) / 7, 1);
    expect(metric('nps')).toMatchObject({ target: 20, meetsTarget: true, series: [{ start: today, value: metric('nps').value, n: 7 }] });
    expect(metric('csat')).toMatchObject({
      value: question('sat').csat.percent,
      n: 6,
      marginOfError95: question('sat').csat.marginOfError95,
    });
    expect(metric('ces')).toMatchObject({
      value: question('effort').ces.mean,
      n: 6,
      marginOfError95: question('effort').ces.marginOfError95,
    });

    const picture = await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}/map.svg${RANGE}`);
    expect(picture.status).toBe(200);
    expect(picture.text).toContain(`>NPS ${metric('nps').value}<`);
  });
});
