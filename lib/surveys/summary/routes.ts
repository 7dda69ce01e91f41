/** The survey summary route (module `surveys`): scores from the day buckets, never an answer's text. */
import { guideLink } from '../../platform/guides.ts';
import { okBody, routesOf } from '../../platform/route.ts';
import { surveyIdParams } from '../schemas.ts';
import { summaryQuery, surveySummary } from './schemas.ts';

// Deployed beside the responses' routes (responses/routes.ts says why).
const route = routesOf({ tag: 'Surveys', module: 'surveys', deployedIn: 'Survey responses' });

export const getSurveySummary = route({
  operationId: 'getSurveySummary',
  method: 'GET',
  path: '/surveys/{id}/summary',
  summary: 'Summarise a survey',
  description:
    'Counts, completion, time to finish (p50/p90 from a histogram) and, per question, how often it was shown, answered and ' +
    'where respondents stopped, option counts, score distributions and NPS, CSAT and CES with 95 % margins of error ' +
    `(the guide ${guideLink('survey-responses.md', 'Survey responses', 'Survey summaries and exports')}). ` +
    'Responses count on the UTC day they were started. Kept incrementally from the table stream: a ' +
    'write shows here within seconds. No answer text and no respondent appears, so `surveys:read` is enough.',
  permissions: ['surveys:read'],
  request: { params: surveyIdParams, query: summaryQuery },
  response: { status: 200, body: okBody({ summary: surveySummary }) },
  errors: {
    400: { invalid_query: '`versionId` not a UUID or `all`, a date not YYYY-MM-DD, or `from` after `to`' },
    404: {
      not_found: "no survey with this id in this workspace, or no version `versionId` in it (other workspaces' surveys are never visible)",
    },
  },
  // The survey (BatchGetItem, with the designs as GET /surveys/{id} reads it) beside one Query of the day buckets.
  table: ['BatchGetItem', 'Query'],
});
