/**
 * `cxctl demo <workspace>`: fills a workspace of the running sandbox with the demo data set, through
 * the API over HTTP (every check, transaction, stream consumer and index builder runs as for any
 * client). Idempotent: every item is found again by its natural key, and creates carry an
 * Idempotency-Key derived from the workspace and the item, so a second run creates nothing.
 */
import { createDeveloperKey, listDeveloperKeys, revokeDeveloperKey } from '../../lib/admin/developer-keys.ts';
import type { Store } from '../../lib/admin/store.ts';
import { createWorkspace, findWorkspace, setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { config } from '../../lib/platform/config.ts';
import { workspaceHostOf } from '../../lib/platform/http/workspace-host.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';
import { DemoApi, Tally } from './api.ts';
import { IDEA_LABELS } from './data.ts';
import { seedIdeas, seedSops, seedWebhook } from './seed-ideas-sops.ts';
import { seedJourneys, seedSurvey } from './seed-journeys-surveys.ts';
import { seedKnowledgeBank } from './seed-knowledge-bank.ts';

const DEMO_KEY_NAME = 'Demo data (cxctl demo)';
/** Long enough for a slow machine; revoked as soon as the run ends anyway. */
const TEMPORARY_KEY_SECONDS = 15 * 60;

export interface DemoOptions {
  workspace: string;
  /** The API's base URL, `…/api/v1`. */
  apiUrl: string;
  /** A key of the workspace to use instead of the demo's own. */
  key?: string;
  log: (line: string) => void;
}

export interface DemoResult {
  workspace: string;
  host: string;
  workspaceCreated: boolean;
  created: number;
  existing: number;
  /** The demo key, when this run created it (shown only now). */
  key: string | null;
  /** No --key and the demo key exists already: the run used a temporary key, revoked at its end. */
  temporaryKey: boolean;
  webhookId: string;
  webhookSecret: string | null;
}

/** The workspace, created when missing, with the idea labels the demo's ideas use added to its own. */
async function prepareWorkspace(store: Store, slug: string, log: (line: string) => void): Promise<boolean> {
  let workspace = await findWorkspace(store, slug);
  const created = !workspace;
  if (!workspace) workspace = await createWorkspace(store, slug);
  const missing = (have: string[], want: string[]) => want.filter((label) => !have.includes(label));
  const statuses = missing(workspace.ideaLabels.statuses, IDEA_LABELS.statuses);
  const modules = missing(workspace.ideaLabels.modules, IDEA_LABELS.modules);
  if (statuses.length > 0 || modules.length > 0) {
    await setIdeaLabels(store, slug, {
      statuses: [...workspace.ideaLabels.statuses, ...statuses],
      modules: [...workspace.ideaLabels.modules, ...modules],
    });
    log(`Added the idea labels the demo uses to ${slug}: ${[...statuses, ...modules].join(', ')}.`);
  }
  return created;
}

/**
 * The key the run sends. Only a key's hash is stored, so the demo key made by an earlier run cannot
 * be used again: a later run without `--key` uses a temporary one and revokes it at the end.
 */
async function keyForRun(
  store: Store,
  options: DemoOptions,
): Promise<{ key: string; shown: boolean; temporary: boolean; release: () => Promise<void> }> {
  const none = async () => {};
  if (options.key) return { key: options.key, shown: false, temporary: false, release: none };
  const keys = await listDeveloperKeys(store, options.workspace);
  const demoKeyExists = keys.some((k) => k.name === DEMO_KEY_NAME && !k.revokedAt);
  const made = await createDeveloperKey(store, {
    workspace: options.workspace,
    name: demoKeyExists ? 'cxctl demo (temporary, revoked after the run)' : DEMO_KEY_NAME,
    permissions: [...PERMISSIONS],
    rateLimitPerMinute: config.defaultRateLimitPerMinute(),
    ...(demoKeyExists ? { expiresInSeconds: TEMPORARY_KEY_SECONDS } : {}),
  });
  if (!demoKeyExists) return { key: made.key, shown: true, temporary: false, release: none };
  return {
    key: made.key,
    shown: false,
    temporary: true,
    release: async () => {
      await revokeDeveloperKey(store, made.id);
    },
  };
}

export async function runDemo(store: Store, options: DemoOptions): Promise<DemoResult> {
  const { workspace, log } = options;
  const host = workspaceHostOf(workspace);
  const workspaceCreated = await prepareWorkspace(store, workspace, log);
  if (workspaceCreated) log(`Created workspace ${workspace} (X-Service-Workspace-Host: ${host}).`);
  const runKey = await keyForRun(store, options);
  const api = new DemoApi(options.apiUrl, workspace, host, runKey.key);
  const tally = new Tally();
  let webhook: { id: string; secret: string | null };
  try {
    await api.get('/me');
    await seedIdeas(api, tally);
    const survey = await seedSurvey(api, tally);
    await seedJourneys(api, survey, tally);
    await seedSops(api, store, tally);
    await seedKnowledgeBank(api, tally);
    webhook = await seedWebhook(api, tally);
  } catch (error) {
    // The run stops here, but the key it made must not be lost with it.
    if (runKey.shown) log(`The demo key for ${workspace}, shown only now: ${runKey.key}`);
    throw error;
  } finally {
    await runKey.release();
  }
  log(tally.created === 0 ? `Everything already exists in ${workspace}: nothing changed.` : `Demo data in ${workspace}:`);
  for (const line of tally.lines) log(line);
  return {
    workspace,
    host,
    workspaceCreated,
    created: tally.created,
    existing: tally.existing,
    key: runKey.shown ? runKey.key : null,
    temporaryKey: runKey.temporary,
    webhookId: webhook.id,
    webhookSecret: webhook.secret,
  };
}

/** What to try next: the key (when new), a first search, the webhook receiver. */
export function nextSteps(result: DemoResult, apiUrl: string): string {
  const key = result.key ?? 'cxk_…';
  const lines = [''];
  if (result.key) lines.push(`A key with every permission for ${result.workspace}, shown only now:`, '', `  ${result.key}`, '');
  else if (result.temporaryKey) {
    lines.push(
      `This run used a temporary key, revoked now. Use your key of ${result.workspace}`,
      `(lost it? npx cxctl key create --workspace ${result.workspace} --all).`,
      '',
    );
  }
  lines.push(
    'Search the knowledge bank ("pasword" finds "password"; the index is current within seconds):',
    '',
    `  curl -s "${apiUrl}/knowledge-bank/search?q=reset%20pasword&limit=5" \\`,
    `    -H 'X-Service-Workspace-Host: ${result.host}' -H 'Authorization: Bearer ${key}'`,
  );
  if (result.webhookSecret) {
    lines.push(
      '',
      'The webhook is disabled until its receiver answers. In another terminal:',
      '',
      `  WEBHOOK_SECRET='${result.webhookSecret}' npm run webhook-receiver`,
      '',
      'then enable it (a verification event goes to the receiver first):',
      '',
      `  curl -s -X POST ${apiUrl}/webhooks/${result.webhookId}/enable -H 'X-Service-Workspace-Host: ${result.host}' -H 'Authorization: Bearer ${key}'`,
    );
  } else {
    lines.push('', `The webhook's secret was shown when it was made; POST /webhooks/${result.webhookId}/rotate gives a new one.`);
  }
  return lines.join('\n');
}
