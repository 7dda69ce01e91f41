import type { Sandbox } from '../local/sandbox.ts';
import { benchWorkspace, type BenchContext as Context, draftSurvey, type Scenario, send } from './harness.ts';
import { largeDefinition, largeDefinitionAnswers } from './surveys-engine.ts';

/** A workspace with one survey whose first draft holds the 200-question definition. */
async function withLargeSurvey(sandbox: Sandbox): Promise<Context> {
  const context = await benchWorkspace(sandbox, 'surveys');
  const { surveyId, versionId, etag } = await draftSurvey(context, 'Bench survey', largeDefinition());
  context.data = { surveyId, versionId, etag };
  return context;
}

const versionPath = (c: Context) => `/surveys/${c.data.surveyId}/versions/${c.data.versionId}`;

export const surveyScenarios: Scenario[] = [
  { name: 'POST /surveys', setup: withLargeSurvey, request: (c) => send(c, 'POST', '/surveys', { name: 'Another' }) },
  { name: 'GET /surveys', setup: withLargeSurvey, request: (c) => send(c, 'GET', '/surveys') },
  { name: 'GET /surveys/{id}', setup: withLargeSurvey, request: (c) => send(c, 'GET', `/surveys/${c.data.surveyId}`) },
  {
    name: 'GET /surveys/{id}/versions/{versionId} (200 questions)',
    setup: withLargeSurvey,
    request: (c) => send(c, 'GET', versionPath(c)),
  },
  {
    name: 'PUT /surveys/{id}/versions/{versionId} (200 questions, validated)',
    setup: withLargeSurvey,
    request: async (c) => {
      const res = await send(c, 'PUT', versionPath(c), { definition: largeDefinition() }, { 'If-Match': c.data.etag ?? '"2"' });
      c.data.etag = res.headers.get('etag') ?? c.data.etag ?? '"2"';
      return res;
    },
  },
  {
    name: 'POST /surveys/{id}/versions/{versionId}/simulate (200 questions)',
    setup: withLargeSurvey,
    request: (c) => send(c, 'POST', `${versionPath(c)}/simulate`, { answers: largeDefinitionAnswers() }),
  },
  {
    name: 'POST /surveys/validate (200 questions)',
    setup: withLargeSurvey,
    request: (c) => send(c, 'POST', '/surveys/validate', { definition: largeDefinition() }),
  },
];
