/**
 * `cxctl demo <workspace>`: fills a workspace of the running sandbox with the demo data set, through
 * the API over HTTP (every check, transaction, stream consumer and index builder runs as for any
 * client). Idempotent: every item is found again by its natural key, and creates carry an
 * Idempotency-Key derived from the workspace and the item, so a second run creates nothing. A record
 * found again is compared with what the demo would write (compare.ts): the run reports every
 * difference and restores nothing, so "nothing changed" means the data is as the demo wrote it.
 */
import { createDeveloperKey, listDeveloperKeys, revokeDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { addIdeaLabels } from '../../lib/admin/idea-labels.ts';
import { AdminError, type TableClient } from '../../lib/admin/table-client.ts';
import { createWorkspace, findWorkspace } from '../../lib/admin/workspaces.ts';
import { config } from '../../lib/platform/config.ts';
import { workspaceHostOf } from '../../lib/platform/http/workspace-host.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';
import { ApiRefusal, DemoApi, type DemoDifference, Tally } from './api.ts';
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
  /** Records that were there and this run wrote to: idea labels added, an item a failed run left half-way. */
  changed: number;
  /** Where records found again differ from what the demo writes; each is left as it is. */
  differences: DemoDifference[];
  /** The demo key, when this run created it (shown only now). */
  key: string | null;
  /** No --key and the demo key exists already: the run used a temporary key, revoked at its end. */
  temporaryKey: boolean;
  webhookId: string;
  webhookSecret: string | null;
}

/** The workspace, created when missing, with the idea labels the demo's ideas use added to its own. */
async function prepareWorkspace(store: TableClient, slug: string, tally: Tally, log: (line: string) => void): Promise<boolean> {
  const created = !(await findWorkspace(store, slug));
  if (created) {
    await createWorkspace(store, slug);
    log(`Created workspace ${slug} (X-Service-Workspace-Host: ${workspaceHostOf(slug)}).`);
  }
  const { added } = await addIdeaLabels(store, slug, IDEA_LABELS);
  const labels = [...added.statuses, ...added.modules];
  if (labels.length > 0) {
    if (!created) tally.changed++;
    log(`Added the idea labels the demo uses to ${slug}: ${labels.join(', ')}.`);
  }
  return created;
}

/**
 * The key the run sends. Only a key's hash is stored, so the demo key made by an earlier run cannot
 * be used again: a later run without `--key` uses a temporary one and revokes it at the end.
 */
async function keyForRun(
  store: TableClient,
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

/**
 * The demo's first request refused its key: the key cxctl made is in a table the API at apiUrl does
 * not serve (another sandbox, or another table of the same one), or the key given is not one it knows.
 */
function keyUnknownTo(options: DemoOptions, store: TableClient, refusal: ApiRefusal): AdminError {
  if (options.key) {
    return new AdminError(
      `${refusal.message}: the API at ${options.apiUrl} does not accept the key given with --key for ${options.workspace} ` +
        '(revoked, expired, or a key of another sandbox or table). Leave out --key to let cxctl make one, or make one with cxctl key create',
    );
  }
  return new AdminError(
    `${refusal.message}: the API at ${options.apiUrl} does not know the key cxctl just made in table ${store.table}, so it serves ` +
      'another table or is another sandbox. Run cxctl demo with the variables the sandbox banner prints for it (PORT, DYNAMODB_PORT, ' +
      'TABLE_NAME, DATA_DIR: those npm start was given), or give --api the API that serves this table',
  );
}

export async function runDemo(store: TableClient, options: DemoOptions): Promise<DemoResult> {
  const { workspace, log } = options;
  const host = workspaceHostOf(workspace);
  const tally = new Tally();
  const workspaceCreated = await prepareWorkspace(store, workspace, tally, log);
  const runKey = await keyForRun(store, options);
  const api = new DemoApi(options.apiUrl, workspace, host, runKey.key);
  let webhook: { id: string; secret: string | null };
  try {
    await api.get('/me').catch((error: unknown) => {
      throw error instanceof ApiRefusal && error.status === 401 ? keyUnknownTo(options, store, error) : error;
    });
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
  const wrote = tally.created > 0 || tally.changed > 0;
  if (!wrote && tally.differences.length === 0) log(`Everything already exists in ${workspace}: nothing changed.`);
  else if (!wrote) log(`The demo data exists in ${workspace} and this run wrote nothing, but not all of it is as the demo wrote it:`);
  else log(`Demo data in ${workspace}:`);
  for (const line of tally.lines) log(line);
  if (tally.differences.length > 0) {
    log('');
    log(`Changed since the demo wrote them, and left as they are (npx cxctl demo <another workspace> makes a fresh copy):`);
    for (const line of tally.differenceLines) log(line);
  }
  return {
    workspace,
    host,
    workspaceCreated,
    created: tally.created,
    existing: tally.existing,
    changed: tally.changed,
    differences: tally.differences,
    key: runKey.shown ? runKey.key : null,
    temporaryKey: runKey.temporary,
    webhookId: webhook.id,
    webhookSecret: webhook.secret,
  };
}

/**
 * What to try next: the key (when new), a first search, the webhook receiver. `variables` go before
 * a cxctl command so that it reaches the same sandbox and table (lib/admin/sandbox-identity.ts).
 */
export function nextSteps(result: DemoResult, apiUrl: string, variables: string): string {
  const key = result.key ?? 'cxk_…';
  const lines = [''];
  if (result.key) lines.push(`A key with every permission for ${result.workspace}, shown only now:`, '', `  ${result.key}`, '');
  else if (result.temporaryKey) {
    lines.push(
      `This run used a temporary key, revoked now. Use your key of ${result.workspace}`,
      `(lost it? ${variables}npx cxctl key create --workspace ${result.workspace} --all).`,
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
