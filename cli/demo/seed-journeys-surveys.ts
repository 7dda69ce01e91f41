/**
 * The demo's survey (published, with twenty finished responses) and its journeys (a macro journey
 * whose sign-up stage zooms into a published micro journey and whose support stage shows the
 * survey's NPS), through the API. Found again by name and title, responses by respondent, and each
 * compared with what the demo writes (compare.ts): the published versions' definition and content too.
 */
import type { DemoApi, Tally } from './api.ts';
import { MACRO_JOURNEY, MICRO_CONTENT, MICRO_JOURNEY, macroContent, RESPONSES, SURVEY } from './data.ts';

export interface SeededSurvey {
  surveyId: string;
  versionId: string;
}

interface SurveyVersion {
  id: string;
  status: string;
  revision: number;
}

async function publishedSurvey(api: DemoApi, tally: Tally): Promise<{ survey: SeededSurvey; created: boolean }> {
  const surveys = await api.listAll<{ id: string; name: string; nameAr: string | null; publishedVersionId: string | null }>(
    '/surveys',
    'surveys',
  );
  const found = surveys.find((s) => s.name === SURVEY.name);
  if (found?.publishedVersionId) {
    const record = `survey "${SURVEY.name}"`;
    tally.compare(record, { nameAr: SURVEY.nameAr, status: 'published' }, found);
    const { version } = (await api.get<{ version: unknown }>(`/surveys/${found.id}/versions/${found.publishedVersionId}`)).body;
    tally.compare(`${record}, its published version`, { definition: SURVEY.definition }, version);
    return { survey: { surveyId: found.id, versionId: found.publishedVersionId }, created: false };
  }
  // A run that stopped before publishing left the draft: it is written and published now.
  if (found) tally.changed++;

  let surveyId: string;
  let draft: SurveyVersion;
  if (found) {
    surveyId = found.id;
    const { versions } = (await api.get<{ versions: SurveyVersion[] }>(`/surveys/${surveyId}`)).body;
    draft = versions.find((v) => v.status === 'draft') as SurveyVersion;
  } else {
    const { body } = await api.post<{ survey: { id: string }; version: SurveyVersion }>(
      '/surveys',
      { name: SURVEY.name, language: 'en' },
      'survey',
    );
    surveyId = body.survey.id;
    draft = body.version;
  }
  // Creating takes the name in the survey's language only; the Arabic name is an edit.
  if (!found?.nameAr) await api.send('PATCH', `/surveys/${surveyId}`, { body: { nameAr: SURVEY.nameAr } });
  await api.send('PUT', `/surveys/${surveyId}/versions/${draft.id}`, {
    body: { definition: SURVEY.definition },
    ifMatch: `"${draft.revision}"`,
  });
  await api.post(`/surveys/${surveyId}/publish`, { versionId: draft.id });
  return { survey: { surveyId, versionId: draft.id }, created: !found };
}

export async function seedSurvey(api: DemoApi, tally: Tally): Promise<SeededSurvey> {
  const { survey, created } = await publishedSurvey(api, tally);
  tally.note('survey', created ? 1 : 0, created ? 0 : 1, 'published, with routing and a follow-up question');

  const answered = new Map(
    (await api.listAll<{ respondent: { externalId: string | null } }>(`/surveys/${survey.surveyId}/responses`, 'responses')).map((r) => [
      r.respondent.externalId,
      r,
    ]),
  );
  let submitted = 0;
  for (const response of RESPONSES) {
    const found = answered.get(response.externalId);
    if (found) {
      tally.compare(`response of ${response.externalId}`, { status: 'finished', answers: response.answers }, found);
      continue;
    }
    await api.post(
      `/surveys/${survey.surveyId}/responses`,
      {
        answers: response.answers,
        finished: true,
        language: response.language,
        respondent: { externalId: response.externalId },
        meta: { source: 'cxctl-demo', channel: String(response.answers.channel) },
      },
      `response-${response.externalId}`,
    );
    submitted++;
  }
  tally.note('responses', submitted, RESPONSES.length - submitted, 'finished');
  return survey;
}

interface JourneyRecord {
  id: string;
  titleEn: string | null;
  parentJourneyId: string | null;
  publishedVersionId: string | null;
}

/**
 * Saves `content` into the journey's draft and publishes it; a journey with a published version is
 * compared with what the demo writes instead (`fields` on the journey, `content` on that version).
 */
async function publishJourney(api: DemoApi, tally: Tally, journey: JourneyRecord, fields: object, content: unknown): Promise<void> {
  const record = `journey "${journey.titleEn}"`;
  if (journey.publishedVersionId) {
    tally.compare(record, fields, journey);
    const { version } = (await api.get<{ version: unknown }>(`/journeys/${journey.id}/versions/${journey.publishedVersionId}`)).body;
    tally.compare(`${record}, its published version`, { content }, version);
    return;
  }
  const versions = await api.listAll<{ id: string; publishedAt: string | null }>(`/journeys/${journey.id}/versions`, 'versions');
  const draft = versions.find((v) => v.publishedAt === null);
  if (!draft) throw new Error(`Journey ${journey.id} has no draft to publish`);
  const path = `/journeys/${journey.id}/versions/${draft.id}`;
  const read = await api.get(path);
  const saved = await api.send('PUT', `${path}/content`, { body: { content }, ifMatch: read.etag ?? '*' });
  await api.send('POST', `${path}/publish`, { ifMatch: saved.etag ?? '*' });
}

export async function seedJourneys(api: DemoApi, survey: SeededSurvey, tally: Tally): Promise<{ journeyId: string }> {
  let created = 0;
  const macros = await api.listAll<JourneyRecord>('/journeys?kind=macro', 'journeys');
  let macro = macros.find((j) => j.titleEn === MACRO_JOURNEY.titleEn);
  // One found without a published version is a run that stopped half-way: taken on (a change).
  const halfWay = (journey: JourneyRecord | undefined) => (journey && !journey.publishedVersionId ? 1 : 0);
  tally.changed += halfWay(macro);
  if (!macro) {
    const { body } = await api.post<{ journeyId: string }>('/journeys', MACRO_JOURNEY, 'journey-macro');
    macro = { id: body.journeyId, titleEn: MACRO_JOURNEY.titleEn, parentJourneyId: null, publishedVersionId: null };
    created++;
  }
  const micros = await api.listAll<JourneyRecord>('/journeys?kind=micro', 'journeys');
  let micro = micros.find((j) => j.parentJourneyId === macro.id && j.titleEn === MICRO_JOURNEY.titleEn);
  tally.changed += halfWay(micro);
  if (!micro) {
    const { body } = await api.post<{ journeyId: string }>(`/journeys/${macro.id}/micro-journeys`, MICRO_JOURNEY, 'journey-micro');
    micro = { id: body.journeyId, titleEn: MICRO_JOURNEY.titleEn, parentJourneyId: macro.id, publishedVersionId: null };
    created++;
  }
  // The micro journey first: the macro journey's content pairs its published version.
  const { titleEn: _, ...microFields } = MICRO_JOURNEY;
  await publishJourney(api, tally, micro, microFields, MICRO_CONTENT);
  await publishJourney(api, tally, macro, { titleAr: MACRO_JOURNEY.titleAr }, macroContent({ journeyId: micro.id }, survey));
  tally.note('journeys', created, 2 - created, 'a macro journey and its micro journey, both published');
  return { journeyId: macro.id };
}
