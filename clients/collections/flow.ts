/**
 * The collections' requests (clients/postman, clients/http), in an order that works against a
 * fresh workspace: each area's create → read → update → delete, as the contract walk makes them
 * (test/integration/api-examples.test.ts). Each request is the operation's recorded example (the
 * document shows the same, from lib/api-examples.json); where it names a record an earlier request
 * created, the id becomes a variable that earlier request captures from its response, so the ids
 * chain in any workspace.
 */
import recorded from '../../lib/api-examples.json' with { type: 'json' };
import { routes } from '../../lib/manifest.ts';
import type { ApiExample } from '../../lib/platform/openapi.ts';
import { API_PREFIX, onWorkspaceHost, type RouteDefinition } from '../../lib/platform/route.ts';

const examples: Readonly<Record<string, ApiExample>> = recorded;

/**
 * A step: an operation, or an operation with the path ids of an earlier step's request (by
 * parameter name) where its recorded path names a record the walk made outside the examples.
 */
type Step = string | readonly [operationId: string, options: StepOptions];

interface StepOptions {
  /** Take the path ids of this earlier step's request, by parameter name. */
  idsFrom?: string;
  /** Repeat the request (a few seconds at most) until its response has this member: what an asynchronous process makes. */
  until?: JsonPath;
  /** Sent with this body, not the recorded one: a call the recording made beside the examples, or a time it fixed. */
  body?: unknown;
  /** The status it answers, where not the recorded one. */
  status?: number;
  /** It creates the record the recordings name by this stand-in (not its recorded answer's), its id at `at`. */
  makes?: { standIn: string; at: JsonPath };
}

/**
 * A time a request sends relative to the moment it is sent: a recovery's `since` must be inside the
 * deliveries' retention, which the recorded fixed date is not. Each dialect computes it as the request
 * goes (Postman and JetBrains: a pre-request script; REST Client: `$datetime`).
 */
export const AN_HOUR_AGO = '{{anHourAgo}}';

/** The idea the walk merges into the first one and unmerges (test/integration/api-examples.test.ts). */
const MERGED_IDEA = '0195f2a0-7c1e-7000-8000-00000000000c';

/**
 * The contract walk's order (an operation reads, changes or deletes only what an earlier one
 * made), except that the webhook comes first, so the ideas' changes give it deliveries to list and
 * redeliver, and that an SOP sent back is submitted again before it is approved.
 */
const FLOW: readonly (readonly [folder: string, steps: readonly Step[]])[] = [
  ['Introduction', ['getApiIndex', 'getMe', 'getOpenApiDocument', 'getApiReference']],
  ['Webhooks', ['createWebhook', 'listWebhooks', 'getWebhook', 'updateWebhook', 'rotateWebhookSecret', 'enableWebhook', 'testWebhook']],
  [
    'Ideas',
    [
      'getIdeaLabels',
      'createIdea',
      'findSimilarIdeas',
      'listIdeas',
      'getIdea',
      'updateIdea',
      'replaceIdea',
      'voteOnIdea',
      // The same customer again: counted once, their vote at version 2, as deleteIdeaVote's If-Match says.
      ['voteOnIdea', { body: { voter: { email: 'ann@example.com' } }, status: 200 }],
      'listIdeaVotes',
      'createIdeaComment',
      'listIdeaComments',
      'updateIdeaComment',
      ['createIdea', { body: { title: 'Night theme', status: 'new' }, makes: { standIn: MERGED_IDEA, at: ['data', 'id'] } }],
      'mergeIdea',
      'unmergeIdea',
      'deleteIdeaComment',
      'deleteIdeaVote',
      'deleteIdea',
    ],
  ],
  [
    'Journeys',
    [
      'validateJourneyContent',
      'createJourney',
      'createMicroJourney',
      'listJourneys',
      'getJourney',
      'updateJourney',
      'getJourneyVersion',
      'saveJourneyVersionContent',
      'updateJourneyVersion',
      'publishJourneyVersion',
      'getJourneyMapPicture',
      ['getJourneyVersionMetrics', { idsFrom: 'getJourneyVersion' }],
      'createJourneyVersion',
      'diffJourneyVersions',
      'listJourneyVersions',
      'deleteJourneyVersion',
      'archiveJourney',
    ],
  ],
  [
    'SOPs',
    [
      'getSopDirectory',
      'createSop',
      'replaceSop',
      'submitSop',
      'sendBackSop',
      'submitSop',
      'approveSop',
      'getSop',
      'listSops',
      'deleteSop',
    ],
  ],
  // Deliveries are made by the webhook pipeline, a few moments after the ideas changed.
  [
    'Webhook deliveries',
    [
      ['listWebhookDeliveries', { until: ['deliveries', 0] }],
      'redeliverWebhookDelivery',
      ['recoverWebhook', { body: { since: AN_HOUR_AGO } }],
      'getWebhookRecovery',
      'disableWebhook',
      'deleteWebhook',
    ],
  ],
  [
    'Surveys',
    [
      'validateSurveyDefinition',
      'createSurvey',
      'createSurveyDesign',
      'updateSurveyDesign',
      'listSurveyDesigns',
      'listAudienceAttributes',
      'updateSurvey',
      'getSurveyVersion',
      'replaceSurveyVersion',
      'simulateSurveyVersion',
      'publishSurvey',
      'getSurveySummary',
      'createSurveyExport',
      'getSurveyExport',
      'submitSurveyResponse',
      'continueSurveyResponse',
      'getSurveyResponse',
      'listSurveyResponses',
      'deleteSurveyResponse',
      'eraseSurveyRespondent',
      'closeSurvey',
      'createSurveyVersion',
      'getSurvey',
      'listSurveys',
      'deleteSurveyVersion',
      'archiveSurvey',
    ],
  ],
  [
    'Knowledge Bank',
    [
      'createKnowledgeBankCategory',
      'getKnowledgeBankCategory',
      'updateKnowledgeBankCategory',
      'listKnowledgeBankCategories',
      'createKnowledgeBankArticle',
      'saveKnowledgeBankDraft',
      'updateKnowledgeBankArticle',
      'publishKnowledgeBankArticle',
      'getKnowledgeBankArticle',
      'listKnowledgeBankArticles',
      'listKnowledgeBankTranslations',
      'searchKnowledgeBank',
      'listKnowledgeBankExternalLinks',
      'checkKnowledgeBankLinks',
      'listKnowledgeBankLinks',
      'listKnowledgeBankBacklinks',
      'listKnowledgeBankRevisions',
      'getKnowledgeBankRevision',
      'restoreKnowledgeBankRevision',
      'unpublishKnowledgeBankArticle',
      'deleteKnowledgeBankArticle',
      // The walk deleted a spare category; here the article's own, now empty.
      ['deleteKnowledgeBankCategory', { idsFrom: 'getKnowledgeBankCategory' }],
    ],
  ],
];

/** The recordings' stand-ins for ids the API makes (test/integration/api-examples.test.ts, normalize). */
const RECORDED_ID = /^(0195f2a0-7c1e-7000-8000-[0-9a-f]{12}|evt_[A-Za-z0-9]+|Ref\d{19})$/;
const RECORDED_ID_IN_TEXT = /0195f2a0-7c1e-7000-8000-[0-9a-f]{12}|evt_[A-Za-z0-9]+|Ref\d{19}/g;
/** A person's reference (`voterRef`, `authorRef`): an id no request's path takes. */
const isPersonRef = (path: JsonPath) => /Ref$/.test(String(path.at(-1)));
/** The sandbox (`npm start`); 127.0.0.1, not localhost, which may resolve to ::1 first and miss it. */
export const SANDBOX_BASE_URL = `http://127.0.0.1:3000${API_PREFIX}`;

/** The collections' variables and their defaults: the sandbox, and the sample receiver (`npm run webhook-receiver`). */
export const COLLECTION_VARIABLES = {
  baseUrl: SANDBOX_BASE_URL,
  workspaceHost: 'your-workspace.localhost',
  key: 'cxk_…',
  webhookUrl: 'http://127.0.0.1:4000/hook',
};

/** The recordings' receiver URL: a collection sends its `webhookUrl` variable instead. */
const RECORDED_RECEIVER = 'https://hooks.example.com/portal';

/** Where in a response an id is: a JSON path as a list of members and indices. */
export type JsonPath = readonly (string | number)[];

interface Capture {
  /** The variable the id goes into, `id_<stand-in>`: referred to as `{{id_…}}` in later requests. */
  variable: string;
  path: JsonPath;
  /** The recorded stand-in: the variable's value until captured (an id of the right shape that names nothing). */
  recorded: string;
}

export interface FlowRequest {
  /** Unique within the flow: the operationId, `… (again)` for a repeat. */
  name: string;
  route: RouteDefinition;
  /** The recorded path below the API prefix, ids of earlier requests as `{{id_…}}`. */
  path: string;
  query: [string, string][];
  headers: [string, string][];
  /** The JSON body, ids of earlier requests as `{{id_…}}`. */
  body: string | undefined;
  /** Ids first seen in this response, for later requests. */
  captures: Capture[];
  /** The status the recorded call got: the operation's success. */
  status: number;
  until: JsonPath | undefined;
  /** Its response shows a webhook's secret (a create or a rotation): the receiver must learn it before an enable. */
  showsWebhookSecret: boolean;
}

export interface Flow {
  folder: string;
  requests: FlowRequest[];
}

const variableOf = (standIn: string) =>
  `id_${standIn
    .replace(/^0195f2a0-7c1e-7000-8000-0*|^evt_/, '')
    .replace(/^Ref0*/, 'ref')
    .slice(-12)}`;

function idsIn(value: unknown, path: JsonPath = [], found: [string, JsonPath][] = []): [string, JsonPath][] {
  if (typeof value === 'string' && RECORDED_ID.test(value) && !isPersonRef(path)) found.push([value, path]);
  else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) idsIn(item, [...path, index], found);
  } else if (value !== null && typeof value === 'object')
    for (const [key, member] of Object.entries(value)) idsIn(member, [...path, key], found);
  return found;
}

/** The values of a path's parameters, by name, read against its route's template (`/a/{id}`). */
function parametersOf(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const values = path.split('/');
  return Object.fromEntries(names.flatMap((name, index) => (name.startsWith('{') ? [[name.slice(1, -1), values[index]!]] : [])));
}

const fill = (template: string, parameters: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => parameters[name]!);

/**
 * Whether an operation is a key holder's request, replayable from its example: not OAuth's, which an
 * OAuth client and a person's browser make on the workspace's own host (a consent page read for its
 * CSRF token, a PKCE verifier, a single-use code; docs/mcp.md, test/integration/mcp-oauth.test.ts).
 */
export const inCollections = (route: RouteDefinition): boolean => !onWorkspaceHost(route) && !(route.operationId in NOT_REPLAYED);

/**
 * Key holders' operations whose recorded example a collection cannot replay in a fresh workspace, and
 * why: what they need is a record or a moment the flow does not make. docs/collections.md lists them;
 * each is in the reference page with its example, and in the TypeScript client. None today: the flow
 * makes the records and moments its requests need (`body`, `makes`, AN_HOUR_AGO).
 */
export const NOT_REPLAYED: Readonly<Record<string, string>> = {};

/** The requests by folder: the manifest's key-holder operations (`allRoutes`, `inCollections`) with their recorded examples. */
export function collectionFlow(allRoutes: readonly RouteDefinition[] = routes, recordedExamples = examples): Flow[] {
  const steps = FLOW.flatMap(([, folderSteps]) => folderSteps.map((step) => (typeof step === 'string' ? step : step[0])));
  // An operation FLOW does not place yet runs last in its area's folder (after the area's deletes:
  // fine for a create or a list; the newman run says when it needs a place of its own).
  const folders = FLOW.map(([folder, folderSteps]) => [folder, [...folderSteps]] as [string, Step[]]);
  for (const route of allRoutes.filter((r) => !steps.includes(r.operationId) && inCollections(r))) {
    const folder = folders.find(([name]) => name === route.tag) ?? folders[folders.push([route.tag, []]) - 1]!;
    folder[1].push(route.operationId);
  }
  const known = new Set<string>();
  const made = new Map<string, FlowRequest>();
  const withVariables = (text: string) => text.replace(RECORDED_ID_IN_TEXT, (id) => (known.has(id) ? `{{${variableOf(id)}}}` : id));
  const bodyOf = (body: unknown) =>
    body === undefined ? undefined : withVariables(JSON.stringify(body, null, 2)).replaceAll(RECORDED_RECEIVER, '{{webhookUrl}}');
  const requestOf = (step: Step): FlowRequest => {
    const [operationId, options] = typeof step === 'string' ? [step, undefined] : step;
    const route = allRoutes.find((r) => r.operationId === operationId);
    const example = recordedExamples[operationId];
    if (!route || !example) throw new Error(`${operationId}: no such operation, or no recorded example (npm run docs:examples)`);
    const { request, response } = example;
    let path = withVariables(request.path);
    if (options?.idsFrom) {
      const source = made.get(options.idsFrom);
      if (!source) throw new Error(`${operationId}: ids from ${options.idsFrom}, which does not come before it`);
      path = fill(route.path, parametersOf(source.route.path, source.path));
    }
    const name = made.has(operationId) ? `${operationId} (again)` : operationId;
    const flowRequest: FlowRequest = {
      name,
      route,
      path,
      query: [...new URLSearchParams(request.query ?? '')]
        .filter(([key]) => key !== 'cursor')
        .map(([key, value]) => [key, withVariables(value)]),
      headers: Object.entries(request.headers ?? {}).map(([key, value]) => [key, withVariables(value)]),
      body: bodyOf(options?.body ?? request.body),
      captures: [],
      status: options?.status ?? response.status,
      until: options?.until,
      showsWebhookSecret: typeof (response.body as { webhook?: { secret?: unknown } } | undefined)?.webhook?.secret === 'string',
    };
    const makes = options?.makes;
    if (makes) {
      known.add(makes.standIn);
      flowRequest.captures.push({ variable: variableOf(makes.standIn), path: makes.at, recorded: makes.standIn });
    }
    const used = new Set(JSON.stringify(request).match(RECORDED_ID_IN_TEXT) ?? []);
    // A request that makes another record than the recorded one answers no id of the recording.
    for (const [id, at] of makes ? [] : idsIn(response.body)) {
      if (known.has(id) || used.has(id)) continue;
      known.add(id);
      flowRequest.captures.push({ variable: variableOf(id), path: at, recorded: id });
    }
    if (!made.has(operationId)) made.set(operationId, flowRequest);
    return flowRequest;
  };
  return folders.map(([folder, folderSteps]) => ({ folder, requests: folderSteps.map(requestOf) }));
}
