/**
 * Writes test/fixtures/upgrade-80f9095/: a sandbox DATA_DIR written by the code of main's commit
 * 80f9095 (the survey-response layout before migration 002), for test/integration/upgrade.test.ts.
 *
 *   npx tsx scripts/make-upgrade-fixture.ts [commit]     (default 80f9095; PORT/DYNAMODB_PORT/SQS_PORT to move its ports)
 *
 * It checks the commit out in a temporary git worktree (node_modules linked from this checkout: the
 * commit's package-lock.json must match), starts that commit's sandbox on a fresh DATA_DIR, fills a
 * workspace through that commit's API (surveys with several versions, finished and partial responses,
 * respondents, a deleted and an erased response, a closed and a draft survey), waits until that
 * commit's aggregator has counted every response, stops the sandbox, and packs the DATA_DIR (without
 * the lock and the rendered reference page) with a manifest of what it made.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const COMMIT = process.argv[2] ?? '80f9095';
const OUT = join(ROOT, 'test/fixtures', `upgrade-${COMMIT}`);
const PORTS = {
  PORT: process.env.PORT ?? '3100',
  DYNAMODB_PORT: process.env.DYNAMODB_PORT ?? '3101',
  SQS_PORT: process.env.SQS_PORT ?? '3102',
};
const API = `http://127.0.0.1:${PORTS.PORT}/api/v1`;
const WORKSPACE = 'upgrade';

const t = (en: string) => ({ en });
const definition = (withReason: boolean) => ({
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
      ],
    },
    { id: 'score', type: 'nps', headline: t('How likely are you to recommend us?'), required: true },
    ...(withReason ? [{ id: 'why', type: 'openText', headline: t('Why?'), required: false }] : []),
  ],
  endings: [{ id: 'thanks', headline: t('Thank you!') }],
});

function sh(command: string, args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

let key = '';
// biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field as the walkthroughs do
async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: {
      'X-Service-Workspace-Host': `${WORKSPACE}.localhost`,
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function publishedSurvey(name: string, withReason: boolean): Promise<{ surveyId: string; versionId: string }> {
  const created = await api('POST', '/surveys', { name });
  const surveyId = created.survey.id as string;
  const versionId = created.version.id as string;
  await api('PUT', `/surveys/${surveyId}/versions/${versionId}`, { definition: definition(withReason) }, { 'If-Match': '"1"' });
  await api('POST', `/surveys/${surveyId}/publish`, { versionId });
  return { surveyId, versionId };
}

const submit = (surveyId: string, body: unknown) => api('POST', `/surveys/${surveyId}/responses`, body).then((r) => r.response);

async function fill(): Promise<Record<string, unknown>> {
  // Survey A: two versions with responses to each, respondents, one response deleted, one respondent erased.
  const a = await publishedSurvey('Onboarding', true);
  const aResponses: string[] = [];
  for (let i = 0; i < 12; i++) {
    const finished = i % 3 !== 2;
    const response = await submit(a.surveyId, {
      answers: finished ? { plan: i % 2 ? 'pro' : 'free', score: i % 11, ...(i % 4 === 0 ? { why: `Reason ${i}` } : {}) } : { plan: 'pro' },
      finished,
      language: 'en',
      respondent: { externalId: `customer-${i % 5}`, ...(i % 6 === 0 ? { email: `person${i}@example.com` } : {}) },
      meta: { channel: i % 2 ? 'email' : 'in-app' },
    });
    aResponses.push(response.id);
  }
  const draft = await api('POST', `/surveys/${a.surveyId}/versions`, {});
  const v2 = draft.version.id as string;
  await api(
    'PUT',
    `/surveys/${a.surveyId}/versions/${v2}`,
    { definition: definition(false) },
    { 'If-Match': `"${draft.version.revision}"` },
  );
  await api('POST', `/surveys/${a.surveyId}/publish`, { versionId: v2, acknowledgeBreakingChanges: true });
  for (let i = 0; i < 8; i++) {
    const response = await submit(a.surveyId, {
      answers: i % 4 === 3 ? { plan: 'free' } : { plan: 'pro', score: 10 - i },
      finished: i % 4 !== 3,
      respondent: { externalId: `customer-${i % 3}` },
    });
    aResponses.push(response.id);
  }
  // A partial response of version 1 continued after version 2 was published (it stays pinned to 1).
  const pinned = aResponses[2] as string;
  await api('PATCH', `/surveys/${a.surveyId}/responses/${pinned}`, { answers: { score: 7 } }, { 'If-Match': '"1"' });
  const deleted = aResponses[1] as string;
  await api('DELETE', `/surveys/${a.surveyId}/responses/${deleted}`);
  const erased = await api('POST', '/surveys/responses/erase', { email: 'person6@example.com' });
  if (erased.erased !== 1) throw new Error(`Expected one erased response, got ${JSON.stringify(erased)}`);

  // Survey B: half its responses partial, for the upgrade test to continue while the migration runs.
  const b = await publishedSurvey('Feedback', false);
  const bPartial: string[] = [];
  const bFinished: string[] = [];
  for (let i = 0; i < 10; i++) {
    const partial = i % 2 === 0;
    const response = await submit(b.surveyId, {
      answers: partial ? { plan: 'free' } : { plan: 'pro', score: 9 },
      finished: !partial,
      respondent: { externalId: `b-${i}` },
    });
    (partial ? bPartial : bFinished).push(response.id);
  }

  // Survey C, closed with responses; survey D, a draft.
  const c = await publishedSurvey('Closed pilot', false);
  for (let i = 0; i < 3; i++) await submit(c.surveyId, { answers: { plan: 'pro', score: 8 } });
  await api('POST', `/surveys/${c.surveyId}/close`);
  const d = await api('POST', '/surveys', { name: 'Draft idea' });

  // Everything counted by this commit's aggregator before the sandbox stops.
  const counted = async (surveyId: string, started: number) =>
    until(
      () => api('GET', `/surveys/${surveyId}/summary?versionId=all`),
      (res) => res.summary.responses.started === started,
      `the summary of ${surveyId} to count ${started}`,
    );
  await counted(a.surveyId, 20 - 2);
  await counted(b.surveyId, 10);
  await counted(c.surveyId, 3);
  return {
    commit: COMMIT,
    workspace: WORKSPACE,
    surveys: {
      a: { ...a, v2, responses: aResponses.filter((id) => id !== deleted && id !== aResponses[6]), deleted, erased: aResponses[6], pinned },
      b: { ...b, partial: bPartial, finished: bFinished },
      c: { surveyId: c.surveyId, status: 'closed' },
      d: { surveyId: d.survey.id, status: 'draft' },
    },
  };
}

async function main(): Promise<void> {
  const checkout = mkdtempSync(join(tmpdir(), `upgrade-fixture-${COMMIT}-`));
  const dataDir = mkdtempSync(join(tmpdir(), 'upgrade-fixture-data-'));
  sh('git', ['worktree', 'add', '--detach', checkout, COMMIT]);
  let sandbox: ReturnType<typeof spawn> | undefined;
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const env = { ...process.env, ...PORTS, DATA_DIR: dataDir };
    sandbox = spawn('npm', ['start'], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    sandbox.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      async () => output,
      (text) => text.includes('Ctrl-C stops everything.'),
      `the ${COMMIT} sandbox to start`,
    );
    const cxctl = (...args: string[]) => sh('node', [join(checkout, 'bin/cxctl.mjs'), ...args], checkout, env);
    cxctl('workspace', 'create', WORKSPACE);
    key = JSON.parse(cxctl('key', 'create', '--workspace', WORKSPACE, '--all', '--json')).key;
    const manifest = await fill();
    sandbox.kill('SIGINT');
    await new Promise((done) => sandbox?.once('exit', done));
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    // The table, the queues, the stream checkpoints and the key that signs cursors and hashes respondents.
    sh('tar', ['-czf', join(OUT, 'data-dir.tar.gz'), '-C', dataDir, 'dynamodb', 'sqs', 'stream-checkpoints.json', 'cursor-signing-key']);
    writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(`Wrote ${OUT} (${readFileSync(join(OUT, 'data-dir.tar.gz')).length} bytes packed)`);
  } finally {
    if (sandbox && sandbox.exitCode === null) sandbox.kill('SIGKILL');
    sh('git', ['worktree', 'remove', '--force', checkout]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
