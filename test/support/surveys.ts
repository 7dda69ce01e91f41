/** Builders for the surveys integration tests: definitions and a survey made over HTTP. */
import { expect } from 'vitest';
import type { clientFor } from './fixtures.ts';

type Api = ReturnType<typeof clientFor>;

const t = (en: string, ar?: string) => (ar ? { en, ar } : { en });

/** A small sound definition with routing, visibility and an option filter. */
export function routedDefinition() {
  return {
    languages: ['en'],
    questions: [
      {
        id: 'plan',
        type: 'singleChoice',
        headline: t('Which plan are you on?'),
        required: true,
        options: [
          { id: 'free', label: t('Free') },
          { id: 'pro', label: t('Pro') },
          { id: 'team', label: t('Team') },
        ],
        routes: [{ when: { question: 'plan', operator: 'equals', value: 'team' }, goTo: 'team-thanks' }],
      },
      {
        id: 'channels',
        type: 'multipleChoice',
        headline: t('Which channels do you use?'),
        required: true,
        options: [
          { id: 'chat', label: t('Chat') },
          { id: 'mail', label: t('E-mail') },
          { id: 'api', label: t('API') },
        ],
      },
      {
        id: 'favourite',
        type: 'singleChoice',
        headline: t('Your favourite?'),
        required: true,
        options: [
          { id: 'chat', label: t('Chat') },
          { id: 'mail', label: t('E-mail') },
          { id: 'api', label: t('API') },
        ],
        optionFilter: { sourceQuestionId: 'channels', mode: 'selected' },
      },
      { id: 'score', type: 'nps', headline: t('How likely are you to recommend us?'), required: true },
      {
        id: 'why-low',
        type: 'openText',
        headline: t('What should we improve?'),
        required: false,
        visibleIf: { question: 'score', operator: 'atMost', value: 6 },
      },
    ],
    endings: [
      { id: 'thanks', headline: t('Thank you!') },
      { id: 'team-thanks', headline: t('Thanks, your account manager will follow up') },
    ],
  };
}

export async function newSurvey(api: Api, name = 'Onboarding survey') {
  const res = await api.post('/surveys', { body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body as { survey: { id: string; version: number }; version: { id: string; revision: number }; designs: { id: string }[] };
}

/** A survey whose first draft holds `definition`, and that draft's new revision. */
export async function surveyWithDefinition(api: Api, definition: unknown = routedDefinition()) {
  const created = await newSurvey(api);
  const saved = await api.put(`/surveys/${created.survey.id}/versions/${created.version.id}`, {
    body: { definition },
    headers: { 'If-Match': `"${created.version.revision}"` },
  });
  expect(saved.status, saved.text).toBe(200);
  return { surveyId: created.survey.id, versionId: created.version.id, version: saved.body.version };
}

/** A published survey whose only version holds `definition`. */
export async function publishedSurvey(api: Api, definition: unknown = routedDefinition()) {
  const { surveyId, versionId } = await surveyWithDefinition(api, definition);
  const published = await api.post(`/surveys/${surveyId}/publish`, { body: { versionId } });
  expect(published.status, published.text).toBe(200);
  return { surveyId, versionId };
}
