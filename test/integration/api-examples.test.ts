/**
 * The request and response examples of the OpenAPI document and the reference page
 * (lib/api-examples.json) are recorded here, from real requests to the sandbox, one scripted walk
 * through every operation of the manifest. Ids, times, secrets, cursors and the workspace are
 * replaced by stable stand-ins, so a recording is the same on every run: this test fails when the
 * committed examples differ from a fresh recording (the API changed), and `npm run docs:examples`
 * records them again.
 *
 * The same walk is the contract run (test/support/contract-walk.ts): each operation's documented
 * refusals are sent too, every answer must be documented and none a 5xx, and a documented error
 * status no call drove fails it, as does an operation the walk does not reach. Each operation's
 * example must also cost the DynamoDB calls and sequential depth docs/latency.md states for it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { routes } from '../../lib/manifest.ts';
import type { ApiExample } from '../../lib/platform/openapi.ts';
import { fullPathOf } from '../../lib/platform/route.ts';
import type { WebhookEvent } from '../../lib/webhooks/events.ts';
import { ContractWalk } from '../support/contract-walk.ts';
import { adminStore, call, newKey, newWorkspace, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';
import { cleanContent } from '../support/journeys.ts';
import { linkTo, para } from '../support/knowledge-bank.ts';
import { hiddenFields, workspaceOrigin } from '../support/oauth.ts';
import { importTestDirectory } from '../support/sop-fixtures.ts';
import { submitResponse } from '../support/survey-responses.ts';
import { routedDefinition } from '../support/surveys.ts';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const EXAMPLES_FILE = resolve(import.meta.dirname, '../../lib/api-examples.json');
const LATENCY_GUIDE = resolve(import.meta.dirname, '../../docs/latency.md');
const RECEIVER_STAND_IN = 'https://hooks.example.com/portal';
const WORKSPACE_ORIGIN_STAND_IN = 'https://acme.portal.example.com';

let ws: TestWorkspace;
let walk: ContractWalk;
let receiver: Receiver;

beforeAll(async () => {
  ws = await newWorkspace('acme');
  walk = new ContractWalk({ host: ws.host, key: ws.key, keyWithoutPermissions: (await newKey(ws.slug, [])).key });
  await setIdeaLabels(adminStore(), ws.slug, { statuses: ['new', 'planned', 'done'], modules: ['billing', 'mobile-app'] });
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const record: ContractWalk['record'] = (...args) => walk.record(...args);
const refuse: ContractWalk['refuse'] = (...args) => walk.refuse(...args);

/**
 * Two responses written as the responses area stores them, once the aggregator has counted them, so
 * the summary example shows numbers (the responses API is another branch's; contract §1).
 */
async function summarisedResponses(surveyId: string, versionId: string): Promise<void> {
  const answered = { surveyId, versionId, path: ['plan', 'channels', 'favourite', 'score'] };
  await submitResponse(ws.slug, {
    ...answered,
    status: 'finished',
    answers: { plan: 'pro', channels: ['chat', 'api'], favourite: 'chat', score: 9 },
    secondsToFinish: 48,
    createdAt: '2026-11-02T09:30:00.000Z',
  });
  await submitResponse(ws.slug, {
    ...answered,
    status: 'partial',
    path: ['plan', 'channels'],
    answers: { plan: 'free' },
    createdAt: '2026-11-03T10:00:00.000Z',
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await call('GET', `/surveys/${surveyId}/summary`, { host: ws.host, key: ws.key });
    if (res.body?.summary?.responses?.started === 2) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The summary did not count the example responses within 10 s');
}

/** Waits for the export writer, so the example shows a finished export with its link. */
async function exportWritten(path: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await call('GET', path, { host: ws.host, key: ws.key });
    if (res.body?.export?.status === 'done') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The export was not written within 15 s');
}

/** Stable stand-ins for what differs on every run: the same value gets the same stand-in throughout. */
function normalize(value: unknown): unknown {
  const uuids = new Map<string, string>();
  const uuidOf = (uuid: string) => {
    if (!uuids.has(uuid)) {
      const n = (uuids.size + 1).toString(16).padStart(12, '0');
      uuids.set(uuid, `0195f2a0-7c1e-7000-8000-${n}`);
    }
    return uuids.get(uuid)!;
  };
  // Knowledge-bank link ids: 16 base64url characters of a hash over the (random) block id.
  const linkIds = new Map<string, string>();
  const linkIdOf = (id: string) => {
    if (!linkIds.has(id)) linkIds.set(id, `kbLink${String(linkIds.size + 1).padStart(10, '0')}`);
    return linkIds.get(id)!;
  };
  // A vote's id and a person's reference: 22 base64url characters of a keyed hash over the (random)
  // workspace and idea; an event's id: its time, then random digits.
  const refs = new Map<string, string>();
  const refOf = (ref: string) => {
    if (!refs.has(ref)) refs.set(ref, `Ref${String(refs.size + 1).padStart(19, '0')}`);
    return refs.get(ref)!;
  };
  const events = new Map<string, string>();
  const eventOf = (id: string) => {
    if (!events.has(id)) events.set(id, `evt_0t9r1k2${String(events.size + 1).padStart(31, '0')}`);
    return events.get(id)!;
  };
  const origin = workspaceOrigin(ws.slug);
  const text = JSON.stringify(value, null, 1)
    .replaceAll(receiver.url, RECEIVER_STAND_IN)
    // The workspace's own host in the sandbox (its port changes on every run): OAuth's addresses.
    .replaceAll(origin, WORKSPACE_ORIGIN_STAND_IN)
    .replaceAll(encodeURIComponent(origin), encodeURIComponent(WORKSPACE_ORIGIN_STAND_IN))
    .replaceAll(ws.slug, 'acme')
    .replaceAll(ws.keyId, 'Q1w2E3r4T5y6')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (uuid) => uuidOf(uuid.toLowerCase()))
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '2026-03-02T09:30:00.000Z')
    .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
    .replace(/"nextCursor": "[^"]+"/g, '"nextCursor": "eyJ2IjoxLCJ3IjoiYWNtZSJ9.Q2hhbmdlcyBvbiBldmVyeSBjYWxs"')
    .replace(/"durationMs": \d+/g, '"durationMs": 84')
    // OAuth's secrets and times: a code, tokens (derived keys), a registration's epoch seconds.
    .replace(/("code": "[0-9a-f-]{36}\.)[A-Za-z0-9_-]+"/g, '$1SplxlOBeZQQYbYS6WxSbIA"')
    .replace(/cx([ar])_[A-Za-z0-9_-]+/g, (_, kind: string) => `cx${kind}_Q1w2E3r4T5y6…`)
    .replace(/"client_id_issued_at": \d+/g, '"client_id_issued_at": 1772443800')
    // A presigned S3 link: its date, credential and signature change on every call.
    .replace(
      /"downloadUrl": "[^"]+"/g,
      '"downloadUrl": "https://cx-portal-survey-exports.s3.amazonaws.com/survey-exports/acme/export.csv?X-Amz-Expires=900&X-Amz-Signature=…"',
    )
    .replace(/"id": "([A-Za-z0-9_-]{16})"/g, (_, id: string) => `"id": "${linkIdOf(id)}"`)
    .replace(/"(id|voteId|voterRef|authorRef)": "([A-Za-z0-9_-]{22})"/g, (_, name: string, ref: string) => `"${name}": "${refOf(ref)}"`)
    .replace(/\/votes\/([A-Za-z0-9_-]{22})\b/g, (_, ref: string) => `/votes/${refOf(ref)}`)
    .replace(/evt_[0-9a-z]{30,}/g, (id) => eventOf(id));
  return JSON.parse(text);
}

/** A page's example: its heading, not the whole page (its CSRF token and expiry change on every call). */
function pageExample(operationId: string, request: ApiExample['request'], status: number, html: string): void {
  walk.recorded.set(operationId, { request, response: { status, body: `<!doctype html>… ${/<h1>.*?<\/h1>/.exec(html)?.[0]} …` } });
}

/**
 * OAuth for the MCP server (docs/mcp.md), on the workspace host: the metadata documents, a client
 * registered, the consent page and its two forms, a code exchanged for tokens, the refresh token revoked.
 */
async function walkOAuth(): Promise<void> {
  // Public routes: no key to probe (operation-probes.ts), so their request checks are driven here.
  const unknownQuery: [number, string] = [400, 'invalid_query'];
  const notTheirBody: [number, string] = [415, 'unsupported_media_type'];
  for (const [operationId, path] of [
    ['getMcpResourceMetadata', '/.well-known/oauth-protected-resource/api/v1/mcp'],
    ['getRootResourceMetadata', '/.well-known/oauth-protected-resource'],
    ['getAuthorizationServerMetadata', '/.well-known/oauth-authorization-server'],
  ] as const) {
    await refuse(operationId, `${path}?unexpected=1`, {}, unknownQuery, false);
    await record(operationId, path);
  }

  const redirectUri = 'https://agent.example.com/callback';
  const register = (body: Record<string, unknown>) => ({ body: { redirect_uris: [redirectUri], ...body } });
  await refuse('registerOAuthClient', '/oauth/register', { form: { redirect_uris: redirectUri } }, notTheirBody, false);
  await refuse('registerOAuthClient', '/oauth/register', register({ redirect_uris: ['http://agent.example.com/callback'] }), [
    400,
    'invalid_redirect_uri',
  ]);
  await refuse('registerOAuthClient', '/oauth/register', register({ token_endpoint_auth_method: 'client_secret_basic' }), [
    400,
    'invalid_client_metadata',
  ]);
  const clientId: string = (await record('registerOAuthClient', '/oauth/register', register({ client_name: 'Acme agent' }))).body.client_id;

  const verifier = 'the-walk-s-pkce-code-verifier-of-forty-three-characters-or-more';
  const request = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${workspaceOrigin(ws.slug)}/api/v1/mcp`,
    scope: 'ideas:read knowledge-bank:read',
    state: 'af0ifjsldkj',
  };
  const authorize = (changes: Record<string, string> = {}) => `/oauth/authorize?${new URLSearchParams({ ...request, ...changes })}`;
  // The person's errors are pages (an unknown client, a redirect URI not the client's: never redirected to); the client's go back to it.
  await walk.answer('showOAuthConsent', authorize({ client_id: randomUUID() }), {}, 401);
  await walk.answer('showOAuthConsent', authorize({ redirect_uri: `${redirectUri}/elsewhere` }), {}, 400);
  await walk.answer('showOAuthConsent', authorize({ code_challenge_method: 'plain' }), {}, 302);
  const page = await record('showOAuthConsent', authorize());
  pageExample('showOAuthConsent', { path: '/oauth/authorize', query: authorize().split('?')[1]! }, 200, page.text);

  const keyStep = hiddenFields(page.text);
  await walk.answer('submitOAuthConsent', '/oauth/authorize', { body: keyStep }, 415);
  await walk.answer('submitOAuthConsent', '/oauth/authorize', { form: { ...keyStep, csrf: 'forged' } }, 400);
  await walk.answer('submitOAuthConsent', '/oauth/authorize', { form: { ...keyStep, key: 'cxk_not-a-key' } }, 401);
  const consent = await record('submitOAuthConsent', '/oauth/authorize', { form: { ...keyStep, key: ws.key } });
  const shown = { ...keyStep, csrf: '…', expires: '…', key: 'cxk_…' };
  pageExample('submitOAuthConsent', { path: '/oauth/authorize', body: shown }, 200, consent.text);
  const allow = { ...hiddenFields(consent.text), decision: 'allow', lifetime: '7', permission: 'ideas:read' };
  const back = await walk.answer('submitOAuthConsent', '/oauth/authorize', { form: allow }, 303);
  const code = new URL(back.headers.get('location')!).searchParams.get('code')!;

  const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId };
  await refuse('exchangeOAuthToken', '/oauth/token', { body: exchange }, notTheirBody, false);
  await refuse('exchangeOAuthToken', '/oauth/token', { form: { ...exchange, grant_type: 'password' } }, [400, 'unsupported_grant_type']);
  const tokens = await record('exchangeOAuthToken', '/oauth/token', { form: { ...exchange, resource: request.resource } });
  const revoke = { token: tokens.body.refresh_token, client_id: clientId };
  await refuse('revokeOAuthToken', '/oauth/revoke', { body: revoke }, notTheirBody, false);
  await refuse('revokeOAuthToken', '/oauth/revoke', { form: { client_id: clientId } }, [400, 'invalid_body'], false);
  await record('revokeOAuthToken', '/oauth/revoke', { form: revoke });
  // The code again, once its grant is revoked: spent all the same.
  await refuse('exchangeOAuthToken', '/oauth/token', { form: exchange }, [400, 'invalid_grant']);
}

describe('API examples (lib/api-examples.json)', () => {
  it('are a fresh recording of one real call of every operation', async () => {
    await record('getOpenApiDocument', '/openapi.json');
    await record('getApiReference', '/docs');
    walk.recorded.set('getApiReference', {
      request: { path: '/docs' },
      response: { status: 200, body: '<!DOCTYPE html><html><head><title>Customer Experience Portal API reference</title>…' },
    });
    await record('getMe', '/me');
    await record('getApiIndex', '');

    // Ideas
    await record('getIdeaLabels', '/ideas/labels');
    const idea = await record('createIdea', '/ideas', {
      headers: { 'Idempotency-Key': '7d0e1c52-1f6a-4b4e-9a57-6a3c2f1d9b10' },
      body: {
        title: 'Dark mode for the portal',
        description: 'Our agents work night shifts.',
        status: 'new',
        module: 'mobile-app',
        submitter: { email: 'ann@example.com' },
      },
    });
    await record('createIdea', '/ideas', { body: { title: 'Export ideas as CSV', status: 'new', module: 'billing' } });
    const id = idea.body.data.id;
    await record('findSimilarIdeas', `/ideas/similar?q=${encodeURIComponent('A dark theme for night shifts')}&limit=3`);
    await record('listIdeas', '/ideas?limit=1');
    await record('getIdea', `/ideas/${id}`);
    await record('updateIdea', `/ideas/${id}`, { headers: { 'If-Match': '"1"' }, body: { status: 'planned' } });
    await record('replaceIdea', `/ideas/${id}`, {
      headers: { 'If-Match': '"2"' },
      body: { title: 'Dark mode everywhere', description: 'Web and mobile', status: 'planned', module: 'mobile-app' },
    });
    // Votes on behalf of customers, comments, merge and unmerge (issue 39)
    const voted = await record('voteOnIdea', `/ideas/${id}/votes`, {
      body: { voter: { email: 'ann@example.com' }, importance: 'critical', note: 'Our night shift needs it' },
    });
    const again = await call('POST', `/ideas/${id}/votes`, { host: ws.host, key: ws.key, body: { voter: { email: 'ann@example.com' } } });
    expect(again.status, again.text).toBe(200);
    // Listed while it is the only vote: votes list by their ids, keyed hashes that differ between sandboxes, so
    // with two a page of one would show either.
    await record('listIdeaVotes', `/ideas/${id}/votes?limit=1`);
    await call('POST', `/ideas/${id}/votes`, { host: ws.host, key: ws.key, body: { voter: { externalId: 'crm-2210' } } });
    await record('listIdeas', '/ideas?limit=1&sort=-votes');
    const comment = await record('createIdeaComment', `/ideas/${id}/comments`, {
      body: { body: 'Please, the app is too bright at night', author: { email: 'ann@example.com', name: 'Ann' } },
    });
    await record('listIdeaComments', `/ideas/${id}/comments?limit=1`);
    const commentPath = `/ideas/${id}/comments/${comment.body.comment.id}`;
    await record('updateIdeaComment', commentPath, { headers: { 'If-Match': '"1"' }, body: { visibility: 'internal' } });
    const duplicate = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Night theme', status: 'new' } });
    const dup = duplicate.body.data.id as string;
    await call('POST', `/ideas/${dup}/votes`, { host: ws.host, key: ws.key, body: { voter: { email: 'bo@example.com' } } });
    await refuse('mergeIdea', `/ideas/${dup}/merge`, { headers: { 'If-Match': '"1"' }, body: { into: dup } }, [400, 'merge_into_itself']);
    await refuse(
      'mergeIdea',
      `/ideas/${dup}/merge`,
      { headers: { 'If-Match': '"1"' }, body: { into: '01900000-0000-7000-8000-0000000000cc' } },
      [400, 'merge_target_not_found'],
    );
    await record('mergeIdea', `/ideas/${dup}/merge`, { headers: { 'If-Match': '"1"' }, body: { into: id } });
    await refuse('voteOnIdea', `/ideas/${dup}/votes`, { body: { voter: { email: 'cy@example.com' } } }, [409, 'idea_merged']);
    await refuse('createIdeaComment', `/ideas/${dup}/comments`, { body: { body: 'Late', author: { externalId: 'c-9' } } }, [
      409,
      'idea_merged',
    ]);
    await refuse('deleteIdeaVote', `/ideas/${dup}/votes/${voted.body.vote.id}`, {}, [409, 'idea_merged']);
    await refuse('deleteIdea', `/ideas/${id}`, {}, [409, 'idea_has_merged_ideas']);
    await record('unmergeIdea', `/ideas/${dup}/unmerge`, { headers: { 'If-Match': '"2"' } });
    await refuse('unmergeIdea', `/ideas/${dup}/unmerge`, { headers: { 'If-Match': '"3"' } }, [409, 'idea_not_merged']);
    await record('deleteIdeaComment', commentPath, { headers: { 'If-Match': '"2"' } });
    await record('deleteIdeaVote', `/ideas/${id}/votes/${voted.body.vote.id}`, { headers: { 'If-Match': '"2"' } });
    await call('DELETE', `/ideas/${dup}`, { host: ws.host, key: ws.key });
    await record('deleteIdea', `/ideas/${id}`, { headers: { 'If-Match': '"3"' } });

    // Journeys
    const content = cleanContent();
    await record('validateJourneyContent', '/journeys/validate', { body: { content } });
    const hugeContent = { schema: 1, stages: [], rows: [], cells: {} as Record<string, { textEn: string }> };
    for (let i = 0; i < 270; i++) hugeContent.cells[`r:s${i}`] = { textEn: 'x'.repeat(4000) };
    await refuse('validateJourneyContent', '/journeys/validate', { body: { content: hugeContent } }, [413, 'content_too_large'], false);
    const journey = await record('createJourney', '/journeys', { body: { titleEn: 'Onboarding', titleAr: 'رحلة' } });
    const made = { journeyId: journey.body.journeyId as string, versionId: journey.body.version.id as string };
    const versionPath = `/journeys/${made.journeyId}/versions/${made.versionId}`;
    await record('createMicroJourney', `/journeys/${made.journeyId}/micro-journeys`, { body: { titleEn: 'Checkout', stageId: 'buy' } });
    await record('listJourneys', '/journeys?limit=1');
    await record('getJourney', `/journeys/${made.journeyId}`);
    await record('updateJourney', `/journeys/${made.journeyId}`, {
      headers: { 'If-Match': '"1"' },
      body: { titleEn: 'Customer onboarding' },
    });
    // An empty patch changes nothing (and reads the journey to say so).
    await record('updateJourney', `/journeys/${made.journeyId}`, { body: {} });
    await refuse(
      'saveJourneyVersionContent',
      `${versionPath}/content`,
      { headers: { 'If-Match': '"1"' }, body: { content: hugeContent } },
      [413, 'content_too_large'],
      false,
    );
    await record('saveJourneyVersionContent', `${versionPath}/content`, { headers: { 'If-Match': '"1"' }, body: { content } });
    await record('updateJourneyVersion', versionPath, { body: { label: 'Launch' } });
    await record('getJourneyVersion', versionPath);
    const current = await call('GET', versionPath, { host: ws.host, key: ws.key });
    await record('publishJourneyVersion', `${versionPath}/publish`, { headers: { 'If-Match': current.headers.get('etag')! } });
    const picture = await record('getJourneyMapPicture', `${versionPath}/map.svg?locale=en`);
    walk.recorded.set('getJourneyMapPicture', {
      request: { path: `${versionPath}/map.svg`, query: 'locale=en' },
      response: { status: 200, body: `${picture.text.slice(0, picture.text.indexOf('<title>'))}<title>Launch</title>…` },
    });
    const draft = await record('createJourneyVersion', `/journeys/${made.journeyId}/versions`, {
      body: { fromVersionId: made.versionId, label: 'Next' },
    });
    const draftPath = `/journeys/${made.journeyId}/versions/${draft.body.version.id}`;
    await record('diffJourneyVersions', `${draftPath}/diff?against=${made.versionId}`);
    await record('listJourneyVersions', `/journeys/${made.journeyId}/versions?limit=1`);
    // Two stages with one id: publish refuses the draft and lists its diagnostics.
    const duplicateStages = { ...content, stages: [...content.stages, { ...content.stages[0]!, microJourneyPairs: [] }] };
    const saved = await call('PUT', `${draftPath}/content`, {
      host: ws.host,
      key: ws.key,
      headers: { 'If-Match': '"1"' },
      body: { content: duplicateStages },
    });
    expect(saved.status, saved.text).toBe(200);
    await refuse('publishJourneyVersion', `${draftPath}/publish`, { headers: { 'If-Match': saved.headers.get('etag')! } }, [
      400,
      'invalid_content',
    ]);
    await record('deleteJourneyVersion', draftPath);
    await record('archiveJourney', `/journeys/${made.journeyId}`);

    // SOPs
    const directory = await importTestDirectory(ws);
    await record('getSopDirectory', '/sops/directory');
    const sopBody = {
      titleEn: 'Refund a duplicate charge',
      type: 'complaint',
      departmentId: directory.teams.billing,
      steps: [{ titleEn: 'Confirm both charges in the billing console' }, { titleEn: 'Refund the later one' }],
      escalationLevel1: directory.people.amal,
    };
    const sop = await record('createSop', '/sops', { body: sopBody });
    const sopId = sop.body.sop.id;
    await record('replaceSop', `/sops/${sopId}`, { body: { ...sopBody, descriptionEn: 'When a customer was charged twice.' } });
    await record('submitSop', `/sops/${sopId}/submit`);
    await record('sendBackSop', `/sops/${sopId}/send-back`, { body: { feedback: 'Add how long the refund takes.' } });
    await call('POST', `/sops/${sopId}/submit`, { host: ws.host, key: ws.key });
    await record('approveSop', `/sops/${sopId}/approve`);
    await record('getSop', `/sops/${sopId}`);
    await record('listSops', '/sops');
    await record('deleteSop', `/sops/${sopId}`);

    // Webhooks
    const webhook = await record('createWebhook', '/webhooks', {
      body: { name: 'Product board sync', url: receiver.url, events: ['idea.submitted', 'idea.status_changed'] },
    });
    const hookId = webhook.body.webhook.id;
    await record('listWebhooks', '/webhooks');
    await record('getWebhook', `/webhooks/${hookId}`);
    await record('updateWebhook', `/webhooks/${hookId}`, {
      body: { name: 'Product board', events: ['idea.submitted'], maxDeliveriesPerSecond: 20 },
    });
    await record('rotateWebhookSecret', `/webhooks/${hookId}/rotate`);
    await record('enableWebhook', `/webhooks/${hookId}/enable`);
    await record('testWebhook', `/webhooks/${hookId}/test`);
    useSandboxEnvironment();
    const { recordNewDelivery } = await import('../../lib/webhooks/store/deliveries.ts');
    const { newEventId } = await import('../../lib/webhooks/events.ts');
    const event = {
      id: 'evt_0t9r1k20000000000000000000000001a9f3b2c',
      type: 'idea.submitted',
      timestamp: new Date().toISOString(),
      data: {},
    } as unknown as WebhookEvent;
    await recordNewDelivery(ws.slug, hookId, event, '{}');
    const deliveries = await record('listWebhookDeliveries', `/webhooks/${hookId}/deliveries?limit=10`);
    await record('redeliverWebhookDelivery', `/webhooks/${hookId}/deliveries/${deliveries.body.deliveries[0].id}/redeliver`);
    const disabled = await record('disableWebhook', `/webhooks/${hookId}/disable`);
    // What it missed while disabled is held (written here as the pipeline's fan-out writes it), then recovered.
    const since = disabled.body.webhook.disabledReason.since as string;
    const missed = { ...event, id: newEventId(), timestamp: new Date().toISOString() } as WebhookEvent;
    await recordNewDelivery(ws.slug, hookId, missed, '{}', 'held');
    await refuse('testWebhook', `/webhooks/${hookId}/test`, {}, [400, 'webhook_disabled']);
    await refuse('recoverWebhook', `/webhooks/${hookId}/recover`, { body: { since } }, [400, 'webhook_disabled']);
    await call('POST', `/webhooks/${hookId}/enable`, { host: ws.host, key: ws.key });
    // The receiver takes 3 s over the recovered delivery, so the recovery is still running when a second one is asked for.
    receiver.respondWith(() => ({ status: 204, delayMs: 3000 }));
    const recovery = await record('recoverWebhook', `/webhooks/${hookId}/recover`, { body: { since } });
    await refuse('recoverWebhook', `/webhooks/${hookId}/recover`, { body: { since } }, [409, 'recovery_in_progress']);
    const recoveryPath = `/webhooks/${hookId}/recoveries/${recovery.body.recovery.id}`;
    await eventually(
      () => call('GET', recoveryPath, { host: ws.host, key: ws.key }),
      (res) => res.body?.recovery?.status === 'done',
      60_000,
    );
    receiver.respondWith(() => ({ status: 204 }));
    await record('getWebhookRecovery', recoveryPath);
    await record('deleteWebhook', `/webhooks/${hookId}`);

    // Surveys
    const definition = routedDefinition();
    await record('validateSurveyDefinition', '/surveys/validate', { body: { definition } });
    const hugeDefinition = {
      ...definition,
      questions: Array.from({ length: 200 }, (_, i) => ({
        id: `q${i}`,
        type: 'openText',
        headline: { en: 'x'.repeat(2000), ar: 'ي'.repeat(2000) },
        required: false,
      })),
    };
    await refuse(
      'validateSurveyDefinition',
      '/surveys/validate',
      { body: { definition: hugeDefinition } },
      [413, 'definition_too_large'],
      false,
    );
    const survey = await record('createSurvey', '/surveys', { body: { name: 'Onboarding', language: 'en' } });
    const surveyId = survey.body.survey.id as string;
    const firstVersion = survey.body.version.id as string;
    const design = await record('createSurveyDesign', '/surveys/designs', {
      body: { name: 'Brand', primaryColor: '#0B5FFF', backgroundColor: '#FFFFFF', logoUrl: 'https://cdn.example.com/logo.png' },
    });
    const designId = design.body.design.id as string;
    await record('updateSurveyDesign', `/surveys/designs/${designId}`, { body: { font: 'Inter' } });
    await record('listSurveyDesigns', '/surveys/designs');
    await record('listAudienceAttributes', '/surveys/audience-attributes');
    await record('updateSurvey', `/surveys/${surveyId}`, { headers: { 'If-Match': '"1"' }, body: { designId } });
    await refuse(
      'replaceSurveyVersion',
      `/surveys/${surveyId}/versions/${firstVersion}`,
      { headers: { 'If-Match': '"1"' }, body: { definition: hugeDefinition } },
      [413, 'definition_too_large'],
      false,
    );
    await record('replaceSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`, {
      headers: { 'If-Match': '"1"' },
      body: { definition },
    });
    await record('getSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`);
    await record('simulateSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}/simulate`, {
      body: { answers: { plan: 'pro', score: 9 } },
    });
    await record('publishSurvey', `/surveys/${surveyId}/publish`, { body: { versionId: firstVersion } });
    await summarisedResponses(surveyId, firstVersion);
    await record('getSurveySummary', `/surveys/${surveyId}/summary?from=2026-11-01&to=2026-11-30`);
    const started = await record('createSurveyExport', `/surveys/${surveyId}/exports`, { body: { format: 'csv', labels: 'en' } });
    // Its body has no free text to vary: the same key with another body is refused here.
    await refuse(
      'createSurveyExport',
      `/surveys/${surveyId}/exports`,
      { headers: { 'Idempotency-Key': 'walk-createSurveyExport' }, body: { format: 'jsonl', labels: 'en' } },
      [409, 'idempotency_key_reused'],
      false,
    );
    const exportPath = `/surveys/${surveyId}/exports/${started.body.export.id}`;
    await exportWritten(exportPath);
    await record('getSurveyExport', exportPath);
    // Journey metrics: a stage's NPS, computed from this survey's responses.
    const measured = await call('POST', '/journeys', { host: ws.host, key: ws.key, body: { titleEn: 'Sign-up', titleAr: 'التسجيل' } });
    const measuredPath = `/journeys/${measured.body.journeyId}/versions/${measured.body.version.id}`;
    const npsContent = {
      schema: 1,
      stages: [{ id: 'sign-up', titleEn: 'Sign up', titleAr: 'التسجيل', microJourneyPairs: [] }],
      rows: [{ id: 'nps', type: 'metric', titleEn: 'NPS', titleAr: 'صافي نقاط الترويج' }],
      cells: { 'nps:sign-up': { source: { surveyId, questionId: 'score', measure: 'nps' }, target: 30 } },
    };
    const bound = await call('PUT', `${measuredPath}/content`, {
      host: ws.host,
      key: ws.key,
      body: { content: npsContent },
      headers: { 'If-Match': '"1"' },
    });
    expect(bound.status, bound.text).toBe(200);
    await record('getJourneyVersionMetrics', `${measuredPath}/metrics?from=2026-11-01&to=2026-11-14&interval=week`);
    // Survey responses
    const submitted = await record('submitSurveyResponse', `/surveys/${surveyId}/responses`, {
      headers: { 'Idempotency-Key': 'resp-7f3a' },
      body: {
        answers: { plan: 'pro' },
        finished: false,
        respondent: { externalId: 'crm-1042', email: 'rania@example.com' },
        meta: { source: 'mobile-app', channel: 'in-app' },
      },
    });
    // Its only top-level text is `language`, which takes en or ar: the same key with another body is refused here.
    await refuse(
      'submitSurveyResponse',
      `/surveys/${surveyId}/responses`,
      { headers: { 'Idempotency-Key': 'resp-7f3a' }, body: { answers: { plan: 'free' }, finished: false } },
      [409, 'idempotency_key_reused'],
      false,
    );
    // Answers no respondent could give: refused with every issue, each `{severity, code, message, path}` as the 400 declares.
    await refuse(
      'submitSurveyResponse',
      `/surveys/${surveyId}/responses`,
      { body: { answers: { plan: 'enterprise', score: 11 }, finished: false } },
      [400, 'invalid_answers'],
    );
    const responseUrl = `/surveys/${surveyId}/responses/${submitted.body.response.id}`;
    // Answers past 64 KB of JSON are refused before anything is read or replayed (not kept as examples).
    const hugeAnswers = { answers: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`q${i}`, 'x'.repeat(15_000)])) };
    await refuse('submitSurveyResponse', `/surveys/${surveyId}/responses`, { body: hugeAnswers }, [413, 'response_too_large'], false);
    await refuse(
      'continueSurveyResponse',
      responseUrl,
      { headers: { 'If-Match': '"1"' }, body: hugeAnswers },
      [413, 'response_too_large'],
      false,
    );
    await record('continueSurveyResponse', responseUrl, {
      headers: { 'If-Match': '"1"' },
      body: { answers: { channels: ['chat', 'api'] } },
    });
    await record('getSurveyResponse', responseUrl);
    await record('listSurveyResponses', `/surveys/${surveyId}/responses?limit=1&status=partial`);
    await record('deleteSurveyResponse', responseUrl);
    await record('eraseSurveyRespondent', '/surveys/responses/erase', { body: { externalId: 'crm-1042' } });
    await record('erasePerson', '/people/erase', { body: { email: 'ann@example.com', externalId: 'crm-2210' } });
    await record('closeSurvey', `/surveys/${surveyId}/close`);
    const nextVersion = await record('createSurveyVersion', `/surveys/${surveyId}/versions`, { body: {} });
    // Its body has no text to vary (withIdempotencyKey): the same key with another body is refused here.
    await refuse(
      'createSurveyVersion',
      `/surveys/${surveyId}/versions`,
      { headers: { 'Idempotency-Key': 'walk-createSurveyVersion' }, body: { fromVersionId: firstVersion } },
      [409, 'idempotency_key_reused'],
      false,
    );
    await record('getSurvey', `/surveys/${surveyId}`);
    await record('listSurveys', '/surveys?limit=1');
    // The next draft, published without acknowledging what it breaks, then with an error in it: both refused.
    const nextPath = `/surveys/${surveyId}/versions/${nextVersion.body.version.id}`;
    const publishNext = { body: { versionId: nextVersion.body.version.id } };
    const saveNext = async (definition: unknown, revision: number) => {
      const saved = await call('PUT', nextPath, {
        host: ws.host,
        key: ws.key,
        headers: { 'If-Match': `"${revision}"` },
        body: { definition },
      });
      expect(saved.status, saved.text).toBe(200);
    };
    const breaking = routedDefinition();
    breaking.questions[0]!.options!.pop();
    breaking.questions[0]!.routes = [];
    await saveNext(breaking, 1);
    await refuse('publishSurvey', `/surveys/${surveyId}/publish`, publishNext, [409, 'breaking_changes']);
    const invalid = routedDefinition();
    invalid.questions[3]!.visibleIf = { question: 'why-low', operator: 'isAnswered' } as never;
    await saveNext(invalid, 2);
    await refuse('publishSurvey', `/surveys/${surveyId}/publish`, publishNext, [400, 'invalid_definition']);
    await record('deleteSurveyVersion', nextPath);
    await refuse('deleteSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`, {}, [409, 'version_locked']);
    await record('archiveSurvey', `/surveys/${surveyId}`);
    await refuse('closeSurvey', `/surveys/${surveyId}/close`, {}, [409, 'survey_archived']);

    // Knowledge bank
    const category = await record('createKnowledgeBankCategory', '/knowledge-bank/categories', {
      body: { nameEn: 'Billing', nameAr: 'الفواتير', descriptionEn: 'Invoices, refunds and payment methods' },
    });
    const categoryId = category.body.category.id as string;
    // A sub-category: deleting it also lowers its parent's child count (issue 19: that write was undeclared).
    const spare = await call('POST', '/knowledge-bank/categories', {
      host: ws.host,
      key: ws.key,
      body: { nameEn: 'Drafts', parentId: categoryId },
    });
    await record('getKnowledgeBankCategory', `/knowledge-bank/categories/${categoryId}`);
    await record('updateKnowledgeBankCategory', `/knowledge-bank/categories/${categoryId}`, {
      headers: { 'If-Match': '"1"' },
      body: { descriptionEn: 'Invoices, refunds, payment methods and taxes' },
    });
    await record('listKnowledgeBankCategories', '/knowledge-bank/categories');
    const article = await record('createKnowledgeBankArticle', '/knowledge-bank/articles', {
      body: { categoryId, titleEn: 'How to pay an invoice', tags: ['invoices'], blocks: [para('Open Billing, then Invoices.')] },
    });
    const articleId = article.body.article.id as string;
    // 36 blocks of 30,000 bytes: past the 1 MB of JSON a draft may hold.
    const hugeBlocks = Array.from({ length: 36 }, () => para(undefined, 'ع'.repeat(15_000)));
    await refuse(
      'createKnowledgeBankArticle',
      '/knowledge-bank/articles',
      { body: { categoryId, titleEn: 'Too big', blocks: hugeBlocks } },
      [413, 'content_too_large'],
      false,
    );
    const related = await call('POST', '/knowledge-bank/articles', {
      host: ws.host,
      key: ws.key,
      body: { categoryId, titleEn: 'Refunds', blocks: [linkTo(articleId)] },
    });
    await call('POST', `/knowledge-bank/articles/${related.body.article.id}/publish`, { host: ws.host, key: ws.key });
    await refuse(
      'saveKnowledgeBankDraft',
      `/knowledge-bank/articles/${articleId}/draft`,
      { headers: { 'If-Match': '"1"' }, body: { titleEn: 'How to pay an invoice', blocks: hugeBlocks } },
      [413, 'content_too_large'],
      false,
    );
    await record('saveKnowledgeBankDraft', `/knowledge-bank/articles/${articleId}/draft`, {
      headers: { 'If-Match': '"1"' },
      body: {
        titleEn: 'How to pay an invoice',
        blocks: [para('Open Billing, then Invoices, and choose Pay.', 'افتح الفواتير ثم اختر ادفع.')],
      },
    });
    await record('updateKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}`, {
      headers: { 'If-Match': '"2"' },
      body: { tags: ['invoices', 'payments'] },
    });
    await record('publishKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}/publish`);
    await record('getKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}`);
    await record('listKnowledgeBankArticles', '/knowledge-bank/articles?limit=1');
    await record('listKnowledgeBankTranslations', '/knowledge-bank/translations?locale=ar&limit=1');
    // Search reads an index the stream keeps current: wait until the publish is searchable, then record.
    for (let attempt = 0; attempt < 100; attempt++) {
      const found = await call('GET', '/knowledge-bank/search?q=invoice', { host: ws.host, key: ws.key });
      if (found.body.results?.length > 0) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    await record('searchKnowledgeBank', '/knowledge-bank/search?q=invoice&locale=en');
    await record('listKnowledgeBankExternalLinks', '/knowledge-bank/links?limit=1');
    await record('checkKnowledgeBankLinks', '/knowledge-bank/links/check');
    await record('listKnowledgeBankLinks', `/knowledge-bank/articles/${related.body.article.id}/links`);
    await record('listKnowledgeBankBacklinks', `/knowledge-bank/articles/${articleId}/backlinks`);
    await record('listKnowledgeBankRevisions', `/knowledge-bank/articles/${articleId}/revisions?limit=1`);
    await record('getKnowledgeBankRevision', `/knowledge-bank/articles/${articleId}/revisions/1`);
    await record('restoreKnowledgeBankRevision', `/knowledge-bank/articles/${articleId}/revisions/1/restore`);
    await record('unpublishKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}/unpublish`);
    await record('deleteKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}`);
    await record('deleteKnowledgeBankCategory', `/knowledge-bank/categories/${spare.body.category.id}`);

    // MCP: one tool call (a tools/list of every tool would be most of the document), and a web page's request.
    const mcp = { Accept: 'application/json, text/event-stream' };
    const toolCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_idea_labels', arguments: {} } };
    await refuse('callMcpServer', '/mcp', { headers: { ...mcp, Origin: 'https://app.example.com' }, body: toolCall }, [
      403,
      'origin_not_allowed',
    ]);
    await record('callMcpServer', '/mcp', { headers: mcp, body: toolCall });
    // Its protocol's own answers: a notification taken, and a client that takes no JSON (a JSON-RPC error).
    await walk.answer('callMcpServer', '/mcp', { headers: mcp, body: { jsonrpc: '2.0', method: 'notifications/initialized' } }, 202);
    await walk.answer('callMcpServer', '/mcp', { headers: { Accept: 'text/html' }, body: toolCall }, 406);
    await walk.answer('callMcpServer', '/mcp', { headers: { ...mcp, 'MCP-Protocol-Version': '1999-01-01' }, body: toolCall }, 400);
    // The read-only variant: the same exchange, read tools only.
    await refuse('callMcpServerReadOnly', '/mcp/readonly', { headers: { ...mcp, Origin: 'https://app.example.com' }, body: toolCall }, [
      403,
      'origin_not_allowed',
    ]);
    await record('callMcpServerReadOnly', '/mcp/readonly', { headers: mcp, body: toolCall });
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    await walk.answer('callMcpServerReadOnly', '/mcp/readonly', { headers: mcp, body: notification }, 202);
    await walk.answer('callMcpServerReadOnly', '/mcp/readonly', { headers: { Accept: 'text/html' }, body: toolCall }, 406);
    const unsupported = { ...mcp, 'MCP-Protocol-Version': '1999-01-01' };
    await walk.answer('callMcpServerReadOnly', '/mcp/readonly', { headers: unsupported, body: toolCall }, 400);

    await walkOAuth();

    // Usage: a range long past, so the example is the same on every run (an empty report); what a
    // real one holds, and that it agrees with cxctl, is test/integration/tenants.test.ts.
    await record('getUsage', '/usage?from=2026-01-01&to=2026-01-02&granularity=day');

    const missing = routes.map((r) => r.operationId).filter((op) => !walk.recorded.has(op));
    expect(missing, 'operations without an example: add a step for each to this walk').toEqual([]);
    expect(
      walk.undrivenErrors(),
      'documented error statuses the walk never drove: make operation-probes.ts derive them, or add a `refuse(...)` step for each',
    ).toEqual([]);

    const fresh = normalize(Object.fromEntries([...walk.examples()].sort(([a], [b]) => a.localeCompare(b))));
    if (process.env.RECORD_EXAMPLES === '1') writeFileSync(EXAMPLES_FILE, `${JSON.stringify(fresh, null, 2)}\n`);
    const committed = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8'));
    expect(committed, 'lib/api-examples.json differs from a fresh recording: run `npm run docs:examples` and commit it').toEqual(fresh);
    // About 2.5 minutes for every operation and its refusals on an idle machine; a shared one running several suites at once
    // (a load of 30 on 2 cores) has taken over 5.
  }, 900_000);

  it('cost the DynamoDB calls and sequential depth docs/latency.md states, operation by operation', () => {
    const stated = new Map(
      [...readFileSync(LATENCY_GUIDE, 'utf8').matchAll(/^\| `(\w+)` \| `(\w+) ([^`]*)` \| (\d+)(?:–(\d+))? \| (\d+) \|/gm)].map(
        ([, operationId, method, path, calls, most, depth]) => [
          operationId!,
          { route: `${method} ${path}`, calls: Number(calls), most: Number(most ?? calls), depth: Number(depth) },
        ],
      ),
    );
    expect([...stated.keys()].sort(), 'docs/latency.md must have one row per operation of the manifest').toEqual(
      routes.map((r) => r.operationId).sort(),
    );
    // A row may state its calls as a span (`5–6`) where the count depends on where hashed keys landed
    // (the ranges that hold a survey's responses): the walk's count must fall inside it.
    const measured = routes.map((route) => {
      const cost = walk.roundTrips.get(route.operationId);
      const row = stated.get(route.operationId);
      const inSpan = cost !== undefined && row !== undefined && cost.calls >= row.calls && cost.calls <= row.most;
      return {
        operationId: route.operationId,
        route: `${route.method} ${fullPathOf(route)}`,
        ...cost,
        ...(inSpan ? { calls: row.calls, most: row.most } : {}),
      };
    });
    expect(measured, 'what the walk measured (X-Sandbox-DynamoDB-Calls, -Depth) differs from docs/latency.md').toEqual(
      routes.map((route) => ({ operationId: route.operationId, ...stated.get(route.operationId) })),
    );
  });
});
