/**
 * The capacity model's workloads (issue 32): what each one does per call, its target, and the values
 * its templates name. Each sets itself up in a fresh workspace while nothing is recorded, then runs
 * its calls one after another (so every item's images are exact); bench/capacity-run.ts records and
 * prices what the functions sent. Targets are per workspace.
 *
 * Machine-driven traffic comes through several keys, as a heavy integration must (one key is capped
 * by its own item at 1,000 requests a second, docs/costs.md): KEYS of them, in turn.
 */
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../lib/admin/developer-keys.ts';
import { createWorkspace, setIdeaLabels, setRequestBudget } from '../lib/admin/workspaces.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import { SURVEY_COLLECTING_COPIES } from '../lib/surveys/entities.ts';
import { EXPORT_PACE } from '../lib/surveys/exports/pace.ts';
import { SURVEY_RESPONSE_FEED_SHARDS, SURVEY_RESPONSE_SHARDS } from '../lib/surveys/responses/entities.ts';
import { DAY_BUCKET_SHARDS } from '../lib/surveys/summary/entities.ts';
import type { Sandbox } from '../local/sandbox.ts';
import type { WorkloadModel } from './capacity-model.ts';

const KEYS = 10;

/**
 * Every workload's workspace has this request budget across its keys (issue 41; `cxctl workspace
 * set-limit`), the most any target asks in requests (survey-partial-flow's 2,000 calls are 6,000
 * requests): at the plan's default (1,000 a second) the budget would refuse most of a target's calls,
 * and its 4 shards would be the first limit of every workload above 1,000 requests a second.
 */
export const WORKLOAD_BUDGET = { requestsPerSecond: 10_000, burst: 20_000 };

/** One workload, ready to run: the values its templates name, and its calls. */
interface PreparedWorkload {
  names: Map<string, string>;
  /** Makes the calls; answers how many it made (an export: the rows it exported). */
  run(): Promise<number>;
  /** Waits for what the calls set going elsewhere (webhook deliveries) before the recording stops. */
  settle?(): Promise<void>;
  /** Only what these functions sent counts (default: everything the calls set going). */
  counts?: (handler: string | undefined) => boolean;
}

export interface Workload {
  id: string;
  title: string;
  /** What one call is. */
  call: string;
  /** The calls a second the model must allow (and the rate stream batches are sized for). */
  target: number;
  /** How the target reads in the table, when it is more than a number. */
  targetNote?: string;
  /** A further condition on the model: a reason the workload fails, or null. */
  check?: (model: WorkloadModel) => string | null;
  /** Copies of a template the code declares (capacity-model.ts), given the stream's shards at the target rate. */
  copies?: (stream: { shards: number }) => Map<string, number>;
  /**
   * What an instance writes whatever its calls (its buffered usage, once every USAGE_FLUSH_SECONDS:
   * lib/platform/data/usage-writes.ts), modelled at the target: a call holds an instance for
   * `requestSeconds`, so target × requestSeconds instances each write once a flush. Without it those
   * writes are left out: a run of calls one after another in one process cannot show them.
   */
  instances?: { requestSeconds: number };
  setup(sandbox: Sandbox): Promise<PreparedWorkload>;
}

/** A call answered with JSON; throws unless the status is `expected`. */
type JsonCall = <T = Record<string, unknown>>(
  method: string,
  path: string,
  expected: number,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<T>;

export interface Caller {
  slug: string;
  host: string;
  apiUrl: string;
  keys: string[];
  /** `KEYS` keys with every permission; calls take them in turn. */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>, keyIndex?: number): Promise<Response>;
  /** As send, and the JSON answer. */
  json: JsonCall;
  /** As json, trying again after a sandbox timeout: for set-up only. */
  settingUp: JsonCall;
}

let workspaces = 0;
let turn = 0;

/** A fresh workspace with `keys` keys holding every permission, and a client that uses them in turn. */
export async function newCaller(sandbox: Sandbox, prefix: string, keys = KEYS): Promise<Caller> {
  const slug = `cap-${prefix}-${process.pid}-${++workspaces}`;
  const workspace = await createWorkspace(sandbox.store, slug);
  await setIdeaLabels(sandbox.store, slug, { statuses: ['new', 'planned'], modules: ['general'] });
  await setRequestBudget(sandbox.store, slug, WORKLOAD_BUDGET);
  const made = await Promise.all(
    Array.from({ length: keys }, (_, i) =>
      createDeveloperKey(sandbox.store, {
        workspace: slug,
        name: `capacity ${i}`,
        permissions: [...PERMISSIONS],
        rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE,
      }),
    ),
  );
  const caller: Caller = {
    slug,
    host: workspace.host,
    apiUrl: sandbox.apiUrl,
    keys: made.map((key) => key.key),
    send(method, path, body, headers = {}, keyIndex) {
      const key = caller.keys[(keyIndex ?? turn++) % caller.keys.length] as string;
      return fetch(`${sandbox.apiUrl}${path}`, {
        method,
        headers: {
          'X-Service-Workspace-Host': workspace.host,
          Authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    async json(method, path, expected, body, headers) {
      const res = await caller.send(method, path, body, headers);
      const text = await res.text();
      if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}, not ${expected}: ${text.slice(0, 300)}`);
      return JSON.parse(text);
    },
    async settingUp(method, path, expected, body, headers) {
      // A loaded machine can time out a cold handler (a 502/504 from the sandbox's function timeout):
      // set-up is not recorded, so it may try again; a recorded call never does.
      for (let attempt = 1; ; attempt++) {
        try {
          return await caller.json(method, path, expected, body, headers);
        } catch (error) {
          if (attempt >= 3 || !/answered 50[24]/.test((error as Error).message)) throw error;
        }
      }
    },
  };
  return caller;
}

/** 20 open-text questions: a finished response of ~4 KB, as issue 32 sizes it. */
const QUESTIONS = 20;
const definition = {
  languages: ['en'],
  questions: Array.from({ length: QUESTIONS }, (_, i) => ({
    id: `q${String(i + 1).padStart(2, '0')}`,
    type: 'openText',
    headline: { en: `Question ${i + 1}: tell us more` },
    required: false,
  })),
  endings: [{ id: 'thanks', headline: { en: 'Thank you' } }],
};
/** An answer of 160 characters: twenty make the response item about 3.8 KB. */
const answer = (call: number, question: number) =>
  `Answer ${question} of response ${call}: `.padEnd(160, 'lorem ipsum dolor sit amet consectetur adipiscing elit ').slice(0, 160);
const answers = (call: number, from = 0, to = QUESTIONS) =>
  Object.fromEntries(definition.questions.slice(from, to).map((question, i) => [question.id, answer(call, from + i + 1)]));

/** Where every survey workload starts: a fresh caller, a published survey, and the names its ids take in a key template. */
async function withPublishedSurvey(sandbox: Sandbox, prefix: string) {
  const caller = await newCaller(sandbox, prefix);
  const created = await caller.settingUp<{ survey: { id: string }; version: { id: string } }>('POST', '/surveys', 200, {
    name: 'Capacity survey',
  });
  const path = `/surveys/${created.survey.id}`;
  await caller.settingUp('PUT', `${path}/versions/${created.version.id}`, 200, { definition }, { 'If-Match': '"1"' });
  await caller.settingUp('POST', `${path}/publish`, 200, { versionId: created.version.id });
  const survey = { surveyId: created.survey.id, versionId: created.version.id };
  const names = new Map([
    [caller.slug, 'ws'],
    [survey.surveyId, 'surveyId'],
    [survey.versionId, 'versionId'],
  ]);
  return { caller, survey, names };
}

/**
 * The copies of a survey's response keys chosen by a stable hash (lib/surveys/responses/entities.ts): its response
 * ranges and their counters, the change feed's partition keys, the collecting state's copies; and its
 * day buckets, one per concurrent aggregator instance (lib/surveys/summary/aggregator.ts): as many as the
 * stream has shards at the target rate, up to the buckets there are.
 */
const responseCopies = (stream: { shards: number }) =>
  new Map([
    ['table WS#<ws> SURVEYRESP#<surveyId>#<shard>#<id>', SURVEY_RESPONSE_SHARDS],
    // The same ranges as a Query that only reads them (an export) names them.
    ['table WS#<ws> SURVEYRESP#<surveyId>#<shard>#…', SURVEY_RESPONSE_SHARDS],
    ['table WS#<ws> SURVEYRESPONSE#<surveyId>$COUNT#<shard>', SURVEY_RESPONSE_SHARDS],
    ['table WS#<ws> SURVEYSTATE#<surveyId>#<shard>', SURVEY_COLLECTING_COPIES],
    ['gsi1 WS#<ws>#SURVEYRESPONSES#<surveyId>#<shard> <time>#<id>', SURVEY_RESPONSE_FEED_SHARDS],
    ['table WS#<ws> SURVEYDAY#<surveyId>#<day>#<versionId>#<shard>', Math.min(DAY_BUCKET_SHARDS, stream.shards)],
  ]);

async function submitFinished(caller: Caller, surveyId: string, call: number): Promise<void> {
  await caller.json('POST', `/surveys/${surveyId}/responses`, 201, { answers: answers(call) });
}

export const surveyWorkloads: Workload[] = [
  {
    id: 'survey-submits',
    title: 'One survey: finished submits, 4 KB responses',
    call: 'a finished submit of 20 open-text answers (~3.8 KB)',
    target: 5_000,
    copies: responseCopies,
    async setup(sandbox) {
      const { caller, survey, names } = await withPublishedSurvey(sandbox, 'submits');
      // A warm instance: its first submit reads the survey and its version, later ones nothing before the write.
      for (let warm = 0; warm < 2; warm++)
        await caller.settingUp('POST', `/surveys/${survey.surveyId}/responses`, 201, { answers: answers(-1) });
      return {
        names,
        async run() {
          const calls = 160;
          for (let i = 0; i < calls; i++) await submitFinished(caller, survey.surveyId, i);
          return calls;
        },
      };
    },
  },
  {
    id: 'survey-partial-flow',
    title: 'One survey: partial → continue → finish',
    call: 'one response submitted partial (7 answers), continued (7 more), finished (6 more)',
    target: 2_000,
    copies: responseCopies,
    async setup(sandbox) {
      const { caller, survey, names } = await withPublishedSurvey(sandbox, 'flow');
      const path = `/surveys/${survey.surveyId}/responses`;
      const warm = await caller.settingUp<{ response: { id: string } }>('POST', path, 201, { answers: answers(-1, 0, 7), finished: false });
      await caller.settingUp('PATCH', `${path}/${warm.response.id}`, 200, { answers: answers(-1, 7, 14) }, { 'If-Match': '"1"' });
      return {
        names,
        async run() {
          const calls = 60;
          for (let i = 0; i < calls; i++) {
            const { response } = await caller.json<{ response: { id: string } }>('POST', path, 201, {
              answers: answers(i, 0, 7),
              finished: false,
            });
            await caller.json('PATCH', `${path}/${response.id}`, 200, { answers: answers(i, 7, 14) }, { 'If-Match': '"1"' });
            await caller.json('PATCH', `${path}/${response.id}`, 200, { answers: answers(i, 14), finished: true }, { 'If-Match': '"2"' });
          }
          return calls;
        },
      };
    },
  },
];

/**
 * A survey export, at a scale the bench can run (EXPORT_RESPONSES responses of ~3.8 KB, a few 1 MB
 * pages). What it costs per exported response does not grow with the count (a Query page sums its
 * items' sizes before rounding once), so 100,000 responses cost 100,000 / EXPORT_RESPONSES times as
 * much, spread over time by the writer's pace (lib/surveys/exports/store/writer.ts): the table shows how long.
 */
const EXPORT_RESPONSES = 300;
const WRITER = 'functions/surveys/write-survey-export.ts';

export const exportWorkload: Workload = {
  id: 'survey-export',
  title: 'A survey export (100,000 responses, modelled with 300)',
  call: 'one response exported to CSV',
  target: 0,
  targetNote: `its reads paced to a third of a range (${EXPORT_PACE.readUnitsPerSecond.toLocaleString('en')} read units a second)`,
  check: (model) => {
    const pacedRate = EXPORT_PACE.readUnitsPerSecond / model.readPerCall;
    return model.ceiling < 3 * pacedRate
      ? `at its pace (${Math.floor(pacedRate)} responses a second) it takes over a third of ${model.bottleneck?.template}`
      : null;
  },
  copies: responseCopies,
  async setup(sandbox) {
    const { caller, survey, names } = await withPublishedSurvey(sandbox, 'export');
    for (let i = 0; i < EXPORT_RESPONSES; i++)
      await caller.settingUp('POST', `/surveys/${survey.surveyId}/responses`, 201, { answers: answers(i) });
    const exported = async () => {
      const res = await caller.send('POST', `/surveys/${survey.surveyId}/exports`, { format: 'csv', labels: 'ids' });
      if (res.status !== 202) throw new Error(`The export was refused: ${res.status} ${await res.text()}`);
      const location = (res.headers.get('location') as string).replace('/api/v1', '');
      await res.arrayBuffer();
      for (;;) {
        const { export: state } = await caller.settingUp<{ export: { status: string; rows: number } }>('GET', location, 200);
        if (state.status === 'done') return state.rows;
        if (state.status === 'failed') throw new Error('The export failed');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await exported(); // a warm writer
    return { names, counts: (handler) => handler === WRITER, run: exported };
  },
};
