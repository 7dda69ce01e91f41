/**
 * The SOP review workflow over HTTP: every row of the spec's SOP state table, every workflow 400,
 * racing transitions, the permission matrix, visibility by permission, delete, tenancy, and the
 * DynamoDB round trips of each operation.
 */
import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeModules } from '../../lib/admin/workspaces.ts';
import { routes } from '../../lib/manifest.ts';
import { workspacePk } from '../../lib/platform/data/keys.ts';
import { sopCommentEntity, sopEntity } from '../../lib/sops/entities.ts';
import {
  type ApiResponse,
  adminStore,
  call,
  clientFor,
  dynamoDbCalls,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { importTestDirectory, sopBody, steadyRateLimitWindow, type TestDirectory } from '../support/sop-fixtures.ts';

let ws: TestWorkspace;
let other: TestWorkspace;
let dir: TestDirectory;
/** Every permission. */
let admin: ReturnType<typeof clientFor>;
/** sops:read alone. */
let reader: ReturnType<typeof clientFor> & { keyId: string; key: string };
/** sops:read + sops:write: an author, not a reviewer. */
let author: ReturnType<typeof clientFor> & { keyId: string };
/** sops:read + sops:approve: a reviewer. */
let reviewer: ReturnType<typeof clientFor> & { keyId: string };

beforeAll(async () => {
  [ws, other] = await Promise.all([newWorkspace('sopflow'), newWorkspace('sopflow-other')]);
  dir = await importTestDirectory(ws);
  admin = clientFor(ws);
  const [r, a, v] = await Promise.all([
    newKey(ws.slug, ['sops:read']),
    newKey(ws.slug, ['sops:read', 'sops:write']),
    newKey(ws.slug, ['sops:read', 'sops:approve']),
  ]);
  reader = { ...clientFor({ host: ws.host, key: r.key }), keyId: r.id, key: r.key };
  author = { ...clientFor({ host: ws.host, key: a.key }), keyId: a.id };
  reviewer = { ...clientFor({ host: ws.host, key: v.key }), keyId: v.id };
});

function ok(res: ApiResponse, status = 200): ApiResponse {
  if (res.status !== status) throw new Error(`Expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

async function createDraft(overrides: Record<string, unknown> = {}) {
  return ok(await author.post('/sops', { body: sopBody(overrides) })).body.sop;
}
async function underReview(overrides: Record<string, unknown> = {}) {
  const sop = await createDraft(overrides);
  return ok(await author.post(`/sops/${sop.id}/submit`)).body.sop;
}
async function published(overrides: Record<string, unknown> = {}) {
  const sop = await underReview(overrides);
  return ok(await reviewer.post(`/sops/${sop.id}/approve`)).body.sop;
}
async function stored(id: string) {
  return ok(await admin.get(`/sops/${id}`)).body;
}

describe('SOP state table (spec part 3)', () => {
  it('POST /sops creates a draft with a department serial, every unset field null', async () => {
    const res = await author.post('/sops', {
      body: {
        titleEn: 'Refund over the limit',
        titleAr: 'استرداد يتجاوز الحد',
        type: 'complaint',
        departmentId: dir.teams.care,
        descriptionEn: 'When a customer asks for a refund above 500 SAR.',
        steps: [{ titleEn: 'Check the order', body: 'Open the order in the back office.' }, { titleAr: 'اتصل بالعميل' }],
        escalationLevel1: dir.people.amal,
        escalationLevel2: dir.teams.billing,
        escalationLevel3: 'role:finance-director',
      },
    });
    expect(res.status).toBe(200);
    const sop = res.body.sop;
    expect(res.body.ok).toBe(true);
    expect(sop).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      serial: 1,
      status: 'draft',
      titleEn: 'Refund over the limit',
      titleAr: 'استرداد يتجاوز الحد',
      type: 'complaint',
      departmentId: dir.teams.care,
      descriptionEn: 'When a customer asks for a refund above 500 SAR.',
      descriptionAr: null,
      steps: [
        { titleEn: 'Check the order', titleAr: null, body: 'Open the order in the back office.' },
        { titleEn: null, titleAr: 'اتصل بالعميل', body: null },
      ],
      escalationLevel1: dir.people.amal,
      escalationLevel2: dir.teams.billing,
      escalationLevel3: 'role:finance-director',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: sop.createdAt,
      submittedAt: null,
      publishedAt: null,
      approvedBy: null,
    });
    expect(await stored(sop.id)).toEqual({ ok: true, sop, comments: [] });
  });

  it('submit: draft → under_review, with submittedAt', async () => {
    const draft = await createDraft();
    const res = await author.post(`/sops/${draft.id}/submit`);
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({ id: draft.id, serial: draft.serial, status: 'under_review', titleEn: draft.titleEn });
    expect(Date.parse(res.body.sop.submittedAt)).toBeGreaterThanOrEqual(Date.parse(draft.createdAt));
    expect(res.body.sop.updatedAt).toBe(res.body.sop.submittedAt);
    expect((await stored(draft.id)).sop).toEqual(res.body.sop);
  });

  it('PUT on a draft: stays draft, content replaced in full (omitted fields cleared)', async () => {
    const draft = await createDraft({ titleAr: 'عنوان', descriptionEn: 'old', steps: [{ body: 'old step' }] });
    const res = await author.put(`/sops/${draft.id}`, {
      body: { titleEn: 'New title', type: 'request', escalationLevel1: 'user:1234', steps: [{ titleEn: 'New step' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({
      id: draft.id,
      serial: draft.serial,
      status: 'draft',
      titleEn: 'New title',
      titleAr: null,
      type: 'request',
      descriptionEn: null,
      steps: [{ titleEn: 'New step', titleAr: null, body: null }],
      escalationLevel1: 'user:1234',
      createdAt: draft.createdAt,
    });
    expect(res.body.sop.updatedAt > draft.updatedAt).toBe(true);
    expect((await stored(draft.id)).sop).toEqual(res.body.sop);
  });

  it('PUT on a published SOP: back to draft with content replaced, publication cleared, hidden from read-only keys', async () => {
    const live = await published({ titleEn: 'Live version' });
    expect(ok(await reader.get(`/sops/${live.id}`)).body.sop.status).toBe('published');

    const res = await author.put(`/sops/${live.id}`, { body: sopBody({ titleEn: 'Revised version' }) });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({
      id: live.id,
      serial: live.serial,
      status: 'draft',
      titleEn: 'Revised version',
      submittedAt: null,
      publishedAt: null,
      approvedBy: null,
    });
    expectErrorEnvelope(await reader.get(`/sops/${live.id}`), 404, 'not_found');
    expect((await reader.get('/sops')).body.sops.map((s: { id: string }) => s.id)).not.toContain(live.id);
  });

  it('PUT under review: 400 invalid_state and nothing changes', async () => {
    const review = await underReview({ titleEn: 'Frozen for review' });
    const before = await stored(review.id);
    const res = await author.put(`/sops/${review.id}`, { body: sopBody({ titleEn: 'Sneaky edit' }) });
    expectErrorEnvelope(res, 400, 'invalid_state');
    expect(res.body.message).toMatch(/under review/);
    expect(await stored(review.id)).toEqual(before);
  });

  it('approve: under_review → published, recording publishedAt and the approving key', async () => {
    const review = await underReview();
    const res = await reviewer.post(`/sops/${review.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({
      id: review.id,
      status: 'published',
      submittedAt: review.submittedAt,
      approvedBy: reviewer.keyId,
    });
    expect(res.body.sop.publishedAt >= review.submittedAt).toBe(true);
    expect(res.body.sop.updatedAt).toBe(res.body.sop.publishedAt);
    expect((await stored(review.id)).sop).toEqual(res.body.sop);
  });

  it('send-back: under_review → draft, the feedback recorded as a review comment', async () => {
    const review = await underReview();
    const res = await reviewer.post(`/sops/${review.id}/send-back`, { body: { feedback: 'Add the refund limit to step 2.' } });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({ id: review.id, status: 'draft', submittedAt: null, publishedAt: null, approvedBy: null });
    const after = await stored(review.id);
    expect(after.sop).toEqual(res.body.sop);
    expect(after.comments).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: 'send_back',
        feedback: 'Add the refund limit to step 2.',
        createdAt: res.body.sop.updatedAt,
        createdBy: reviewer.keyId,
      },
    ]);
  });

  it('walks create → submit → send-back → edit → submit → send-back → edit → submit → approve, keeping every comment in order', async () => {
    const draft = await createDraft({ titleEn: 'v1' });
    ok(await author.post(`/sops/${draft.id}/submit`));
    ok(await reviewer.post(`/sops/${draft.id}/send-back`, { body: { feedback: 'first round' } }));
    ok(await author.put(`/sops/${draft.id}`, { body: sopBody({ titleEn: 'v2' }) }));
    ok(await author.post(`/sops/${draft.id}/submit`));
    ok(await reviewer.post(`/sops/${draft.id}/send-back`, { body: { feedback: 'second round' } }));
    ok(await author.put(`/sops/${draft.id}`, { body: sopBody({ titleEn: 'v3' }) }));
    ok(await author.post(`/sops/${draft.id}/submit`));
    const approved = ok(await reviewer.post(`/sops/${draft.id}/approve`)).body.sop;
    expect(approved).toMatchObject({ status: 'published', titleEn: 'v3', serial: draft.serial });
    const { comments } = await stored(draft.id);
    expect(comments.map((c: { feedback: string }) => c.feedback)).toEqual(['first round', 'second round']);
  });
});

describe('workflow violations: 400 invalid_state, nothing written', () => {
  it('submit from under_review or published (rule 1)', async () => {
    for (const sop of [await underReview(), await published()]) {
      const before = await stored(sop.id);
      const res = await author.post(`/sops/${sop.id}/submit`);
      expectErrorEnvelope(res, 400, 'invalid_state');
      expect(res.body.message).toContain(sop.status);
      expect(await stored(sop.id)).toEqual(before);
    }
  });

  it('approve from draft or published', async () => {
    for (const sop of [await createDraft(), await published()]) {
      const before = await stored(sop.id);
      expectErrorEnvelope(await reviewer.post(`/sops/${sop.id}/approve`), 400, 'invalid_state');
      expect(await stored(sop.id)).toEqual(before);
    }
  });

  it('send-back from draft or published, adding no comment', async () => {
    for (const sop of [await createDraft(), await published()]) {
      const before = await stored(sop.id);
      expectErrorEnvelope(await reviewer.post(`/sops/${sop.id}/send-back`, { body: { feedback: 'no' } }), 400, 'invalid_state');
      expect(await stored(sop.id)).toEqual(before);
    }
  });

  it('send-back needs feedback: missing, blank, too long or with unknown fields → 400 invalid_body', async () => {
    const review = await underReview();
    for (const body of [
      undefined,
      {},
      { feedback: '' },
      { feedback: '   ' },
      { feedback: 'x'.repeat(4001) },
      { feedback: 'ok', extra: 1 },
    ]) {
      const res = await reviewer.post(`/sops/${review.id}/send-back`, body === undefined ? {} : { body });
      expectErrorEnvelope(res, 400, 'invalid_body');
    }
    expect(ok(await reviewer.post(`/sops/${review.id}/send-back`, { body: { feedback: 'x'.repeat(4000) } })).body.sop.status).toBe('draft');
  });

  it('every operation on an unknown id is 404 not_found; a malformed id is 400 invalid_path', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expectErrorEnvelope(await admin.get(`/sops/${missing}`), 404, 'not_found');
    expectErrorEnvelope(await reader.get(`/sops/${missing}`), 404, 'not_found');
    expectErrorEnvelope(await admin.put(`/sops/${missing}`, { body: sopBody() }), 404, 'not_found');
    expectErrorEnvelope(await admin.delete(`/sops/${missing}`), 404, 'not_found');
    expectErrorEnvelope(await admin.post(`/sops/${missing}/submit`), 404, 'not_found');
    expectErrorEnvelope(await admin.post(`/sops/${missing}/approve`), 404, 'not_found');
    expectErrorEnvelope(await admin.post(`/sops/${missing}/send-back`, { body: { feedback: 'x' } }), 404, 'not_found');
    expectErrorEnvelope(await admin.get(`/sops/${encodeURIComponent('a b')}`), 400, 'invalid_path');
  });

  it('an id that is the prefix of a real id finds nothing', async () => {
    const sop = await createDraft();
    expectErrorEnvelope(await admin.get(`/sops/${sop.id.slice(0, 8)}`), 404, 'not_found');
  });
});

describe('racing transitions: one conditional write each', () => {
  it('of five concurrent approvals exactly one succeeds; the others get 400 invalid_state', async () => {
    const review = await underReview();
    const approvers = await Promise.all(Array.from({ length: 5 }, () => newKey(ws.slug, ['sops:approve'])));
    const results = await Promise.all(approvers.map((k) => call('POST', `/sops/${review.id}/approve`, { host: ws.host, key: k.key })));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expectErrorEnvelope(loser, 400, 'invalid_state');
    const winnerKey = approvers[results.indexOf(winners[0]!)]!.id;
    expect((await stored(review.id)).sop.approvedBy).toBe(winnerKey);
  });

  it('approve racing send-back: exactly one verdict wins, and a comment exists only if send-back won', async () => {
    for (let round = 0; round < 3; round++) {
      const review = await underReview();
      const [approve, sendBack] = await Promise.all([
        reviewer.post(`/sops/${review.id}/approve`),
        reviewer.post(`/sops/${review.id}/send-back`, { body: { feedback: 'race' } }),
      ]);
      expect([approve.status, sendBack.status].sort()).toEqual([200, 400]);
      const after = await stored(review.id);
      if (approve.status === 200) {
        expect(after.sop.status).toBe('published');
        expect(after.comments).toEqual([]);
        expectErrorEnvelope(sendBack, 400, 'invalid_state');
      } else {
        expect(after.sop.status).toBe('draft');
        expect(after.comments).toHaveLength(1);
        expectErrorEnvelope(approve, 400, 'invalid_state');
      }
    }
  });
});

describe('permission matrix', () => {
  it('approve needs sops:approve: a key with sops:write gets 403 and the SOP stays under review', async () => {
    const review = await underReview();
    const res = await author.post(`/sops/${review.id}/approve`);
    expectErrorEnvelope(res, 403, 'missing_permission');
    expect(res.body.message).toContain('sops:approve');
    expect((await stored(review.id)).sop.status).toBe('under_review');
  });

  it('send-back needs sops:approve: a key with sops:write gets 403', async () => {
    const review = await underReview();
    expectErrorEnvelope(await author.post(`/sops/${review.id}/send-back`, { body: { feedback: 'mine' } }), 403, 'missing_permission');
    expect(await stored(review.id)).toMatchObject({ sop: { status: 'under_review' }, comments: [] });
  });

  it('delete needs sops:delete: sops:write is not enough; a key with only sops:delete may', async () => {
    const draft = await createDraft();
    const res = await author.delete(`/sops/${draft.id}`);
    expectErrorEnvelope(res, 403, 'missing_permission');
    expect(res.body.message).toContain('sops:delete');
    expect((await stored(draft.id)).sop.id).toBe(draft.id);
    const deleter = await newKey(ws.slug, ['sops:delete']);
    expect(ok(await call('DELETE', `/sops/${draft.id}`, { host: ws.host, key: deleter.key })).body).toEqual({ ok: true });
  });

  it('create, replace and submit need sops:write: read-only and approve-only keys get 403', async () => {
    const draft = await createDraft();
    for (const client of [reader, reviewer]) {
      expectErrorEnvelope(await client.post('/sops', { body: sopBody() }), 403, 'missing_permission');
      expectErrorEnvelope(await client.put(`/sops/${draft.id}`, { body: sopBody() }), 403, 'missing_permission');
      expectErrorEnvelope(await client.post(`/sops/${draft.id}/submit`), 403, 'missing_permission');
    }
    expect((await stored(draft.id)).sop).toEqual(draft);
  });

  it('reads need sops:read', async () => {
    const writeOnly = await newKey(ws.slug, ['sops:write']);
    for (const path of ['/sops', '/sops/directory', `/sops/${(await createDraft()).id}`]) {
      expectErrorEnvelope(await call('GET', path, { host: ws.host, key: writeOnly.key }), 403, 'missing_permission');
    }
  });

  it('checks permissions before the body: a read-only key sending garbage gets 403, not 400', async () => {
    expectErrorEnvelope(await reader.post('/sops', { body: { nonsense: true } }), 403, 'missing_permission');
  });
});

describe('visibility by permission (spec part 4, rule 5)', () => {
  let draft: any;
  let review: any;
  let live: any;
  let commented: any;

  beforeAll(async () => {
    [draft, review, live] = await Promise.all([
      createDraft({ titleEn: 'vis draft' }),
      underReview({ titleEn: 'vis review' }),
      published({ titleEn: 'vis live' }),
    ]);
    // A published SOP that went through a send-back, so it has a review comment.
    const sop = await underReview({ titleEn: 'vis commented' });
    ok(await reviewer.post(`/sops/${sop.id}/send-back`, { body: { feedback: 'internal remark' } }));
    ok(await author.post(`/sops/${sop.id}/submit`));
    commented = ok(await reviewer.post(`/sops/${sop.id}/approve`)).body.sop;
  });

  it('a key holding only sops:read lists only published SOPs', async () => {
    const res = await reader.get('/sops');
    expect(res.status).toBe(200);
    const ids = res.body.sops.map((s: { id: string }) => s.id);
    expect(ids).toContain(live.id);
    expect(ids).toContain(commented.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(review.id);
    expect(res.body.sops.every((s: { status: string }) => s.status === 'published')).toBe(true);
    expect(res.body.sops.find((s: { id: string }) => s.id === live.id)).toEqual((await stored(live.id)).sop);
  });

  it('keys holding sops:write or sops:approve list every state', async () => {
    for (const client of [author, reviewer, admin]) {
      const ids = (await client.get('/sops')).body.sops.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([draft.id, review.id, live.id, commented.id]));
    }
  });

  it('lists oldest first', async () => {
    const list = (await admin.get('/sops')).body.sops as { createdAt: string }[];
    const created = list.map((s) => s.createdAt);
    expect(created).toEqual([...created].sort());
  });

  it('a read-only key gets 404 for a draft or an SOP under review, like an SOP that does not exist', async () => {
    for (const sop of [draft, review]) {
      const res = await reader.get(`/sops/${sop.id}`);
      expectErrorEnvelope(res, 404, 'not_found');
      expect(res.text).not.toContain(sop.titleEn);
    }
  });

  it('a read-only key reads a published SOP with comments always empty', async () => {
    const res = await reader.get(`/sops/${commented.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, sop: commented, comments: [] });
    expect(res.text).not.toContain('internal remark');
  });

  it('keys holding sops:write or sops:approve read every state and the comments', async () => {
    for (const client of [author, reviewer]) {
      expect((await client.get(`/sops/${draft.id}`)).body.sop.status).toBe('draft');
      expect((await client.get(`/sops/${review.id}`)).body.sop.status).toBe('under_review');
      const res = await client.get(`/sops/${commented.id}`);
      expect(res.body.comments.map((c: { feedback: string }) => c.feedback)).toEqual(['internal remark']);
    }
  });
});

describe('DELETE /sops/{id}', () => {
  async function collection(id: string) {
    const { Items } = await adminStore().db.send(
      new QueryCommand({
        TableName: adminStore().table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': workspacePk(ws.slug), ':prefix': sopEntity.keys.sop(ws.slug, id).sk },
        ConsistentRead: true,
      }),
    );
    return Items ?? [];
  }

  it('deletes the SOP and its review comments together, in any state', async () => {
    const review = await underReview();
    ok(await reviewer.post(`/sops/${review.id}/send-back`, { body: { feedback: 'one' } }));
    ok(await author.post(`/sops/${review.id}/submit`));
    ok(await reviewer.post(`/sops/${review.id}/send-back`, { body: { feedback: 'two' } }));
    ok(await author.post(`/sops/${review.id}/submit`));
    expect(await collection(review.id)).toHaveLength(3);

    const res = await admin.delete(`/sops/${review.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await collection(review.id)).toEqual([]);
    expectErrorEnvelope(await admin.get(`/sops/${review.id}`), 404, 'not_found');
    expect((await admin.get('/sops')).body.sops.map((s: { id: string }) => s.id)).not.toContain(review.id);
    expectErrorEnvelope(await admin.delete(`/sops/${review.id}`), 404, 'not_found');
  });

  it('deletes an SOP with more review comments than one transaction holds', async () => {
    const draft = await createDraft();
    // 150 earlier send-backs, written as the send-back transaction writes them (sparing 300 requests).
    const comments = Array.from({ length: 150 }, (_, i) => {
      const createdAt = new Date(Date.parse(draft.createdAt) + i + 1).toISOString();
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      return {
        ...sopCommentEntity.keys.comment(ws.slug, draft.id, createdAt, id),
        entity: sopCommentEntity.name,
        id,
        sopId: draft.id,
        kind: 'send_back',
        feedback: `round ${i}`,
        createdAt,
        createdBy: reviewer.keyId,
      };
    });
    for (let start = 0; start < comments.length; start += 25) {
      await adminStore().db.send(
        new BatchWriteCommand({
          RequestItems: { [adminStore().table]: comments.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    }
    await adminStore().db.send(
      new UpdateCommand({
        TableName: adminStore().table,
        Key: sopEntity.keys.sop(ws.slug, draft.id),
        UpdateExpression: 'SET commentCount = :n',
        ExpressionAttributeValues: { ':n': comments.length },
      }),
    );
    const read = await stored(draft.id);
    expect(read.comments.map((c: { feedback: string }) => c.feedback)).toEqual(comments.map((c) => c.feedback));

    expect(ok(await admin.delete(`/sops/${draft.id}`)).body).toEqual({ ok: true });
    expect(await collection(draft.id)).toEqual([]);
  });

  it('deletes a published SOP', async () => {
    const live = await published();
    ok(await admin.delete(`/sops/${live.id}`));
    expectErrorEnvelope(await reader.get(`/sops/${live.id}`), 404, 'not_found');
  });
});

describe('tenancy', () => {
  it("another workspace cannot see, change or delete this workspace's SOPs (404), nor list them", async () => {
    const live = await published();
    const draft = await createDraft();
    const theirs = clientFor(other);
    for (const sop of [live, draft]) {
      expectErrorEnvelope(await theirs.get(`/sops/${sop.id}`), 404, 'not_found');
      expectErrorEnvelope(await theirs.put(`/sops/${sop.id}`, { body: sopBody() }), 404, 'not_found');
      expectErrorEnvelope(await theirs.post(`/sops/${sop.id}/submit`), 404, 'not_found');
      expectErrorEnvelope(await theirs.post(`/sops/${sop.id}/approve`), 404, 'not_found');
      expectErrorEnvelope(await theirs.post(`/sops/${sop.id}/send-back`, { body: { feedback: 'x' } }), 404, 'not_found');
      expectErrorEnvelope(await theirs.delete(`/sops/${sop.id}`), 404, 'not_found');
    }
    expect((await theirs.get('/sops')).body.sops).toEqual([]);
    expect(await stored(live.id)).toMatchObject({ sop: live });
    expect((await stored(draft.id)).sop).toEqual(draft);
  });

  it("a workspace's key is refused on another workspace's host (401)", async () => {
    expectErrorEnvelope(await call('GET', '/sops', { host: other.host, key: ws.key }), 401, 'invalid_key');
  });
});

describe('module sops disabled', () => {
  it('answers 403 module_disabled on every SOP route, for a key holding every permission', async () => {
    const local = await newWorkspace('sopflow-off');
    await changeModules(adminStore(), local.slug, { disable: ['sops'] });
    const sopRoutes = routes.filter((r) => r.tag === 'SOPs');
    expect(sopRoutes).toHaveLength(9);
    for (const route of sopRoutes) {
      const path = route.path.replace('{id}', '00000000-0000-4000-8000-000000000000');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { feedback: 'x', ...sopBody() };
      const res = await call(route.method, path, { host: local.host, key: local.key, body });
      expectErrorEnvelope(res, 403, 'module_disabled');
    }
  });
});

describe('DynamoDB round trips', () => {
  it('costs auth (3) plus one call per read or transition, two for a send-back, create and delete', async () => {
    await steadyRateLimitWindow(ws, ws.key, reader.key);
    const costs: Record<string, number> = {};
    const measure = async (name: string, res: Promise<ApiResponse>, status = 200) => {
      const r = ok(await res, status);
      costs[name] = dynamoDbCalls(r);
      return r.body;
    };

    const created = (await measure('create (no directory reference)', admin.post('/sops', { body: sopBody() }))).sop;
    const withRefs = (
      await measure(
        'create (department + 3 directory references)',
        admin.post('/sops', {
          body: sopBody({
            type: 'incident',
            departmentId: dir.teams.care,
            escalationLevel1: dir.people.amal,
            escalationLevel2: dir.people.omar,
            escalationLevel3: dir.teams.billing,
          }),
        }),
      )
    ).sop;
    await measure('replace (same department, no reference)', admin.put(`/sops/${created.id}`, { body: sopBody({ titleEn: 'Edited' }) }));
    await measure(
      'replace (same department, directory reference)',
      admin.put(`/sops/${withRefs.id}`, { body: sopBody({ departmentId: dir.teams.care, escalationLevel1: dir.people.omar }) }),
    );
    await measure('replace (new department)', admin.put(`/sops/${created.id}`, { body: sopBody({ departmentId: dir.teams.billing }) }));
    await measure('submit', admin.post(`/sops/${created.id}/submit`));
    await measure('send-back', admin.post(`/sops/${created.id}/send-back`, { body: { feedback: 'again' } }));
    await measure('submit again', admin.post(`/sops/${created.id}/submit`));
    await measure('approve', admin.post(`/sops/${created.id}/approve`));
    await measure('get (with comments)', admin.get(`/sops/${created.id}`));
    await measure('get (read-only key)', reader.get(`/sops/${created.id}`));
    await measure('list', admin.get('/sops'));
    await measure('list (read-only key)', reader.get('/sops'));
    await measure('directory', admin.get('/sops/directory'));
    await measure('rejected transition', admin.post(`/sops/${created.id}/approve`), 400);
    await measure('delete', admin.delete(`/sops/${created.id}`));

    expect(costs).toEqual({
      'create (no directory reference)': 5,
      'create (department + 3 directory references)': 6,
      'replace (same department, no reference)': 4,
      'replace (same department, directory reference)': 5,
      'replace (new department)': 7,
      submit: 4,
      'send-back': 5,
      'submit again': 4,
      approve: 4,
      'get (with comments)': 4,
      'get (read-only key)': 4,
      list: 4,
      'list (read-only key)': 4,
      directory: 4,
      'rejected transition': 4,
      delete: 5,
    });
  });
});
