/** Binding journey metric cells to survey questions: what a save reports, with JSON Pointer paths, and what it costs. */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, dynamoDbCalls, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { metricContent, publishedScoredSurvey, scoredDefinition } from '../support/journey-metrics.ts';
import { type Api, insideOneRateLimitWindow, makeJourney, publish, save } from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;
let survey: { surveyId: string; versionId: string };

const UNKNOWN = '0190f4a2-7c1e-7000-8000-000000000000';
const bound = (questionId: string, measure: string, extra: Record<string, unknown> = {}, surveyId = survey.surveyId) => ({
  source: { surveyId, questionId, measure, ...extra },
  target: 30,
});
const found = (diagnostics: { severity: string; code: string; path: string }[]) =>
  diagnostics.filter((d) => d.code.startsWith('metric_')).map((d) => `${d.severity} ${d.code} ${d.path}`);

beforeAll(async () => {
  ws = await newWorkspace('journeys-bindings');
  api = clientFor(ws);
  survey = await publishedScoredSurvey(api);
});

describe('metric cells bound to survey questions', () => {
  it('saves a sound binding without diagnostics, and it publishes', async () => {
    const made = await makeJourney(api);
    const res = await save(
      api,
      made,
      metricContent({ s1: bound('score', 'nps'), s2: bound('stars', 'topBox', { versionId: survey.versionId }) }),
    );
    expect(res.status, res.text).toBe(200);
    expect(found(res.body.version.diagnostics)).toEqual([]);
    expect(res.body.version.content.cells['m:s1']).toEqual(bound('score', 'nps'));
    expect((await publish(api, made)).status).toBe(200);
  });

  it('reports each wrong binding at its JSON Pointer, errors blocking publish', async () => {
    const made = await makeJourney(api);
    const res = await save(
      api,
      made,
      metricContent({
        unknownSurvey: bound('score', 'nps', {}, UNKNOWN),
        unknownQuestion: bound('nope', 'nps'),
        unknownVersion: bound('score', 'nps', { versionId: UNKNOWN }),
        npsOfRating: bound('stars', 'nps'),
        topBoxOfText: bound('why', 'topBox'),
        meanOfNumber: bound('age', 'mean'),
        csatOfCsat: bound('sat', 'csat'),
        cesOfNps: bound('score', 'ces'),
        typed: { ...bound('score', 'nps'), value: 12 },
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(found(res.body.version.diagnostics).sort()).toEqual(
      [
        'error metric_survey_not_found /cells/m:unknownSurvey/source/surveyId',
        'error metric_question_not_found /cells/m:unknownQuestion/source/questionId',
        'error metric_version_not_found /cells/m:unknownVersion/source/versionId',
        'error metric_measure_mismatch /cells/m:npsOfRating/source/measure',
        'error metric_measure_mismatch /cells/m:topBoxOfText/source/measure',
        'error metric_measure_mismatch /cells/m:cesOfNps/source/measure',
        'warning metric_value_ignored /cells/m:typed/value',
      ].sort(),
    );
    const refused = await publish(api, made);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_content');
  });

  it("treats another workspace's survey exactly like one that does not exist", async () => {
    const other = clientFor(await newWorkspace('journeys-bindings-other'));
    const theirs = await publishedScoredSurvey(other);
    const made = await makeJourney(api);
    const res = await save(api, made, metricContent({ s1: bound('score', 'nps', {}, theirs.surveyId) }));
    expect(found(res.body.version.diagnostics)).toEqual(['error metric_survey_not_found /cells/m:s1/source/surveyId']);
    expect(res.text).not.toContain('How likely');
  });

  it('warns when the question is only in a draft of the survey, and when the survey is archived', async () => {
    const draft = await api.post(`/surveys/${survey.surveyId}/versions`, { body: { fromVersionId: survey.versionId } });
    expect(draft.status, draft.text).toBe(200);
    const extra = { id: 'later', type: 'ces', headline: { en: 'Later?' }, required: false };
    const saved = await api.put(`/surveys/${survey.surveyId}/versions/${draft.body.version.id}`, {
      body: { definition: scoredDefinition([extra]) },
      headers: { 'If-Match': `"${draft.body.version.revision}"` },
    });
    expect(saved.status, saved.text).toBe(200);
    const made = await makeJourney(api);
    const res = await save(api, made, metricContent({ s1: bound('later', 'ces') }));
    expect(found(res.body.version.diagnostics)).toEqual(['warning metric_question_unpublished /cells/m:s1/source/questionId']);

    const archived = await publishedScoredSurvey(api);
    expect((await api.delete(`/surveys/${archived.surveyId}`)).status).toBe(200);
    const again = await save(api, made, metricContent({ s1: bound('score', 'nps', {}, archived.surveyId) }));
    expect(found(again.body.version.diagnostics)).toEqual(['warning metric_survey_archived /cells/m:s1/source/surveyId']);
  });

  it('costs the save one survey read and one version read beside its reference read', async () => {
    const fresh = await publishedScoredSurvey(api);
    const made = await makeJourney(api);
    await insideOneRateLimitWindow(api);
    const current = await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}`);
    const res = await api.put(`/journeys/${made.journeyId}/versions/${made.versionId}/content`, {
      body: { content: metricContent({ s1: bound('score', 'nps', {}, fresh.surveyId), s2: bound('sat', 'csat', {}, fresh.surveyId) }) },
      headers: { 'If-Match': current.headers.get('etag')! },
    });
    expect(res.status, res.text).toBe(200);
    // auth 2 + the journey and version with the references 1 + the survey 1 + its published version 1 + the write 1.
    expect(dynamoDbCalls(res)).toBe(7);
  });
});
