/** Journey versions over HTTP: branch, relabel, save, publish, discard, diff, validate, and their rules. */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, dynamoDbCalls, dynamoDbDepth, expectErrorEnvelope, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import {
  type Api,
  cleanContent,
  insideOneRateLimitWindow,
  largeContent,
  type MadeJourney,
  makeJourney,
  makeMicroJourney,
  publish,
  save,
} from '../support/journeys.ts';
import { newSurvey } from '../support/surveys.ts';

let ws: TestWorkspace;
let api: Api;

beforeAll(async () => {
  ws = await newWorkspace('journeys-versions');
  api = clientFor(ws);
});

const versionPath = (made: MadeJourney) => `/journeys/${made.journeyId}/versions/${made.versionId}`;
const codesOf = (diagnostics: { code: string; path: string }[]) => diagnostics.map((d) => `${d.code} ${d.path}`);

describe('PUT …/versions/{versionId}/content', () => {
  it('saves content, bumps the revision (the ETag) and returns fresh diagnostics', async () => {
    const made = await makeJourney(api);
    const res = await api.put(`${versionPath(made)}/content`, { body: { content: cleanContent() }, headers: { 'If-Match': '"1"' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.version).toMatchObject({ revision: 2, content: cleanContent(), diagnostics: [] });
    expect(res.headers.get('etag')).toBe('"2"');
    const read = await api.get(versionPath(made));
    expect(read.body.version).toEqual(res.body.version);
    expect(read.headers.get('etag')).toBe('"2"');
  });

  it('saves inconsistent content and reports it as diagnostics with JSON Pointer paths', async () => {
    const made = await makeJourney(api);
    const content = {
      schema: 1,
      stages: [{ id: 's', titleEn: 'Stage', microJourneyPairs: [{ journeyId: '0190f4a2-7c1e-7000-8000-000000000000' }] }],
      rows: [
        { id: 'feel', type: 'emotion' },
        { id: 'feel', type: 'text' },
        { id: 'refs', type: 'links' },
      ],
      cells: {
        'feel:s': { textEn: 'wrong shape' },
        'ghost:s': { score: 1 },
        'refs:s': {
          refs: [
            { kind: 'idea', id: 'nope' },
            { kind: 'survey', id: 'later' },
          ],
        },
      },
    };
    const res = await save(api, made, content);
    expect(res.status, res.text).toBe(200);
    expect(codesOf(res.body.version.diagnostics)).toEqual([
      'duplicate_row_id /rows/1/id',
      'missing_translation /stages/0/titleAr',
      'pair_journey_not_found /stages/0/microJourneyPairs/0/journeyId',
      'cell_type_mismatch /cells/feel:s',
      'missing_translation /cells/feel:s/textAr',
      'cell_unknown_row /cells/ghost:s',
      'link_not_found /cells/refs:s/refs/0',
      'link_not_found /cells/refs:s/refs/1',
    ]);
    expect(res.body.version.diagnostics[0]).toEqual({
      severity: 'error',
      code: 'duplicate_row_id',
      message: expect.any(String),
      path: '/rows/1/id',
    });
  });

  it('finds links to ideas, SOPs and journeys that exist', async () => {
    const made = await makeJourney(api);
    const other = await makeJourney(api, 'Linked');
    const idea = await api.post('/ideas', { body: { title: 'Linked idea' } });
    const content = {
      schema: 1,
      stages: [{ id: 's', titleEn: 'S', titleAr: 'س', microJourneyPairs: [] }],
      rows: [{ id: 'refs', type: 'links' }],
      cells: {
        'refs:s': {
          refs: [
            { kind: 'journey', id: other.journeyId },
            { kind: 'idea', id: idea.body.data.id },
            { kind: 'sop', id: 'missing' },
          ],
        },
      },
    };
    const res = await save(api, made, content);
    expect(codesOf(res.body.version.diagnostics)).toEqual(['link_not_found /cells/refs:s/refs/2']);
  });

  // Issue 37 item 10: survey links were always `link_not_checked`.
  it('checks links to surveys: one that exists is fine, a missing one (or another workspace’s) is not found, an archived one warned', async () => {
    const made = await makeJourney(api);
    const live = await newSurvey(api, 'Linked survey');
    const archived = await newSurvey(api, 'Archived survey');
    expect((await api.delete(`/surveys/${archived.survey.id}`)).status).toBe(200);
    const elsewhere = await newSurvey(clientFor(await newWorkspace('journeys-links-other')), 'Another workspace’s survey');
    const content = {
      schema: 1,
      stages: [{ id: 's', titleEn: 'S', titleAr: 'س', microJourneyPairs: [] }],
      rows: [{ id: 'refs', type: 'links' }],
      cells: {
        'refs:s': {
          refs: [
            { kind: 'survey', id: live.survey.id },
            { kind: 'survey', id: archived.survey.id },
            { kind: 'survey', id: elsewhere.survey.id },
            { kind: 'survey', id: 'not-a-survey' },
          ],
        },
      },
    };
    const expected = ['link_archived /cells/refs:s/refs/1', 'link_not_found /cells/refs:s/refs/2', 'link_not_found /cells/refs:s/refs/3'];
    const saved = await save(api, made, content);
    expect(saved.status, saved.text).toBe(200);
    expect(codesOf(saved.body.version.diagnostics)).toEqual(expected);
    expect(saved.body.version.diagnostics[0]).toEqual({
      severity: 'warning',
      code: 'link_archived',
      message: `Survey "${archived.survey.id}" is archived`,
      path: '/cells/refs:s/refs/1',
    });
    const validated = await api.post('/journeys/validate', { body: { content } });
    expect(codesOf(validated.body.diagnostics)).toEqual(expected);
    // The surveys are read beside the journey's own reads: one call more, no round trip more (and the budget's count beside the key's).
    expect([dynamoDbCalls(saved), dynamoDbDepth(saved)]).toEqual([6, 3]);
    expect([dynamoDbCalls(validated), dynamoDbDepth(validated)]).toEqual([4, 2]);
    // Warnings do not stop a publish.
    const published = await publish(api, made);
    expect(published.status, published.text).toBe(200);
    expect(codesOf(published.body.version.diagnostics)).toEqual(expected);
  });

  it('rejects what is wrong in itself with 400 invalid_body listing every issue, and changes nothing', async () => {
    const made = await makeJourney(api);
    const bad = {
      schema: 1,
      stages: [{ id: 'bad id', microJourneyPairs: [] }],
      rows: [{ id: 'r', type: 'mood' }],
      cells: { 'no-colon': {}, 'r:s': { score: 3 }, 'c:s': { channels: ['fax'] } },
    };
    const res = await api.put(`${versionPath(made)}/content`, { body: { content: bad }, headers: { 'If-Match': '"1"' } });
    expectErrorEnvelope(res, 400, 'invalid_body');
    const paths = res.body.issues.map((issue: { path: string }) => issue.path);
    for (const path of [
      'body.content.stages.0.id',
      'body.content.rows.0.type',
      'body.content.cells.no-colon',
      'body.content.cells.r:s',
      'body.content.cells.c:s',
    ]) {
      expect(
        paths.some((p: string) => p.startsWith(path)),
        `${path} in ${paths}`,
      ).toBe(true);
    }
    expect((await api.get(versionPath(made))).body.version.revision).toBe(1);
  });

  it('answers 413 content_too_large above 1,048,576 bytes, or when the compressed form would not fit', async () => {
    const made = await makeJourney(api);
    const huge = { schema: 1, stages: [], rows: [], cells: { 'r:s': { textEn: 'x'.repeat(4000) } } };
    for (let i = 0; i < 270; i++) huge.cells[`r:s${i}` as 'r:s'] = { textEn: 'x'.repeat(4000) };
    const tooBig = await api.put(`${versionPath(made)}/content`, { body: { content: huge }, headers: { 'If-Match': '"1"' } });
    expectErrorEnvelope(tooBig, 413, 'content_too_large');

    const { randomBytes } = await import('node:crypto');
    const noise = { schema: 1, stages: [], rows: [], cells: {} as Record<string, { textEn: string }> };
    for (let i = 0; i < 130; i++) noise.cells[`r:s${i}`] = { textEn: randomBytes(2900).toString('base64').slice(0, 3900) };
    const incompressible = await api.put(`${versionPath(made)}/content`, { body: { content: noise }, headers: { 'If-Match': '"1"' } });
    expectErrorEnvelope(incompressible, 413, 'content_too_large');
    expect(incompressible.body.message).toContain('compress');

    // 413 comes before 400 (size before shape), and before 404.
    const hugeAndWrong = { ...huge, schema: 7 };
    expectErrorEnvelope(
      await api.put(`${versionPath(made)}/content`, { body: { content: hugeAndWrong }, headers: { 'If-Match': '"1"' } }),
      413,
      'content_too_large',
    );
    expectErrorEnvelope(
      await api.put(`/journeys/${made.journeyId}/versions/0190f4a2-7c1e-7000-8000-000000000000/content`, {
        body: { content: huge },
        headers: { 'If-Match': '"1"' },
      }),
      413,
      'content_too_large',
    );
    expect((await api.get(versionPath(made))).body.version.revision).toBe(1);
  });

  it('needs If-Match (400 if_match_required) and refuses a stale one (409 with the current ETag), changing nothing', async () => {
    const made = await makeJourney(api);
    expectErrorEnvelope(await api.put(`${versionPath(made)}/content`, { body: { content: cleanContent() } }), 400, 'if_match_required');
    expect((await save(api, made, cleanContent())).status).toBe(200);
    const stale = await api.put(`${versionPath(made)}/content`, {
      body: { content: { schema: 1, stages: [], rows: [], cells: {} } },
      headers: { 'If-Match': '"1"' },
    });
    expectErrorEnvelope(stale, 409, 'version_conflict');
    expect(stale.headers.get('etag')).toBe('"2"');
    expect((await api.get(versionPath(made))).body.version.content).toEqual(cleanContent());
  });

  it('lets exactly one of two concurrent saves with the same If-Match win', async () => {
    const made = await makeJourney(api);
    const attempts = await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) =>
        api.put(`${versionPath(made)}/content`, {
          body: { content: { schema: 1, stages: [{ id, titleEn: id, titleAr: id, microJourneyPairs: [] }], rows: [], cells: {} } },
          headers: { 'If-Match': '"1"' },
        }),
      ),
    );
    const statuses = attempts.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const lost of attempts.filter((res) => res.status === 409)) {
      expectErrorEnvelope(lost, 409, 'version_conflict');
      expect(lost.headers.get('etag')).toBe('"2"');
    }
    const winner = attempts.find((res) => res.status === 200)!;
    const stored = (await api.get(versionPath(made))).body.version;
    expect(stored.revision).toBe(2);
    expect(stored.content).toEqual(winner.body.version.content);
  });

  it('checks in order: 404, then archived, then published, then missing If-Match, then stale', async () => {
    const unknownVersion = { journeyId: (await makeJourney(api)).journeyId, versionId: '0190f4a2-7c1e-7000-8000-000000000000' };
    expectErrorEnvelope(await api.put(`${versionPath(unknownVersion)}/content`, { body: { content: cleanContent() } }), 404, 'not_found');

    const published = await makeJourney(api);
    expect((await publish(api, published)).status).toBe(200);
    expectErrorEnvelope(await api.put(`${versionPath(published)}/content`, { body: { content: cleanContent() } }), 409, 'version_locked');
    expectErrorEnvelope(
      await api.put(`${versionPath(published)}/content`, { body: { content: cleanContent() }, headers: { 'If-Match': '"9"' } }),
      409,
      'version_locked',
    );

    const archived = await makeJourney(api);
    expect((await publish(api, archived)).status).toBe(200);
    await api.delete(`/journeys/${archived.journeyId}`);
    expectErrorEnvelope(await api.put(`${versionPath(archived)}/content`, { body: { content: cleanContent() } }), 409, 'journey_archived');
  });

  it('costs auth + 1 read + 1 write without pairs, and one more read per level of paired journeys', async () => {
    const made = await makeJourney(api);
    await insideOneRateLimitWindow(api, 5);
    const plain = await api.put(`${versionPath(made)}/content`, { body: { content: cleanContent() }, headers: { 'If-Match': '"1"' } });
    expect(dynamoDbCalls(plain)).toBe(5);

    const micro = await makeMicroJourney(api, made.journeyId);
    const nested = await makeMicroJourney(api, micro.journeyId);
    expect((await publish(api, nested)).status).toBe(200);
    expect((await save(api, micro, cleanContent([{ journeyId: nested.journeyId }]))).status).toBe(200);
    expect((await publish(api, micro)).status).toBe(200);
    // Level 1: micro (with this journey and version, one BatchGetItem); level 2: nested; then the write.
    await insideOneRateLimitWindow(api, 5);
    const paired = await api.put(`${versionPath(made)}/content`, {
      body: { content: cleanContent([{ journeyId: micro.journeyId }]) },
      headers: { 'If-Match': '"2"' },
    });
    expect(paired.status, paired.text).toBe(200);
    expect(paired.body.version.diagnostics).toEqual([]);
    expect(dynamoDbCalls(paired)).toBe(6);
  });
});

describe('POST …/publish', () => {
  it('publishes atomically: publishedAt on the version, publishedVersionId on the journey; again is a 200 no-op', async () => {
    const made = await makeJourney(api);
    expect((await save(api, made, cleanContent())).status).toBe(200);
    const res = await api.post(`${versionPath(made)}/publish`, { headers: { 'If-Match': '"2"' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.version).toMatchObject({ id: made.versionId, revision: 2, publishedAt: expect.any(String) });
    expect(res.body.journey).toMatchObject({ id: made.journeyId, publishedVersionId: made.versionId });
    expect(res.headers.get('etag')).toBe('"2"');
    expect((await api.get(`/journeys/${made.journeyId}`)).body.journey).toEqual(res.body.journey);
    expect((await api.get(versionPath(made))).body.version).toEqual(res.body.version);

    const again = await api.post(`${versionPath(made)}/publish`, { headers: { 'If-Match': '"2"' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('refuses content with error diagnostics: 400 invalid_content with them, and publishes nothing', async () => {
    const made = await makeJourney(api);
    expect((await save(api, made, { ...cleanContent(), cells: { 'feel:discover': { textEn: 'a', textAr: 'b' } } })).status).toBe(200);
    const res = await api.post(`${versionPath(made)}/publish`, { headers: { 'If-Match': '"2"' } });
    expectErrorEnvelope(res, 400, 'invalid_content');
    expect(codesOf(res.body.diagnostics)).toContain('cell_type_mismatch /cells/feel:discover');
    expect((await api.get(versionPath(made))).body.version.publishedAt).toBeNull();
    expect((await api.get(`/journeys/${made.journeyId}`)).body.journey.publishedVersionId).toBeNull();
  });

  it('recomputes diagnostics at publish: a paired journey archived since the save blocks it', async () => {
    const made = await makeJourney(api);
    const micro = await makeMicroJourney(api, made.journeyId);
    expect((await publish(api, micro)).status).toBe(200);
    const saved = await save(api, made, cleanContent([{ journeyId: micro.journeyId }]));
    expect(saved.body.version.diagnostics).toEqual([]);
    expect((await api.delete(`/journeys/${micro.journeyId}`)).status).toBe(200);
    const res = await publish(api, made);
    expectErrorEnvelope(res, 400, 'invalid_content');
    expect(codesOf(res.body.diagnostics)).toEqual(['pair_journey_archived /stages/0/microJourneyPairs/0/journeyId']);
  });

  it('refuses a micro-journey cycle, found at save and again at publish', async () => {
    const macro = await makeJourney(api);
    const a = await makeMicroJourney(api, macro.journeyId, 'A');
    const b = await makeMicroJourney(api, a.journeyId, 'B');
    // b pairs a and is published; then a, pairing b, would reach itself again.
    expect((await publish(api, a)).status).toBe(200);
    const bDraft = await api.post(`/journeys/${b.journeyId}/versions`, { body: { fromVersionId: b.versionId } });
    const bVersion = { journeyId: b.journeyId, versionId: bDraft.body.version.id };
    expect((await save(api, bVersion, cleanContent([{ journeyId: a.journeyId }]))).body.version.diagnostics).toEqual([]);
    expect((await publish(api, bVersion)).status).toBe(200);

    const aDraft = await api.post(`/journeys/${a.journeyId}/versions`, { body: { fromVersionId: a.versionId, label: 'With B' } });
    const aVersion = { journeyId: a.journeyId, versionId: aDraft.body.version.id };
    const saved = await save(api, aVersion, cleanContent([{ journeyId: b.journeyId }]));
    expect(codesOf(saved.body.version.diagnostics)).toEqual(['micro_journey_cycle /stages/0/microJourneyPairs/0']);
    expect(saved.body.version.diagnostics[0].message).toContain(`${a.journeyId} → ${b.journeyId} → ${a.journeyId}`);
    expectErrorEnvelope(await publish(api, aVersion), 400, 'invalid_content');

    // From outside (a dry run pairing a), no cycle: a's published version pairs nothing.
    const dry = await api.post('/journeys/validate', { body: { content: cleanContent([{ journeyId: a.journeyId }]) } });
    expect(dry.body.diagnostics).toEqual([]);
  });

  it('warns about pairs to drafts and to never-published micro journeys, and pinned versions that do not exist are errors', async () => {
    const macro = await makeJourney(api);
    const micro = await makeMicroJourney(api, macro.journeyId);
    const res = await save(api, macro, cleanContent([{ journeyId: micro.journeyId, versionId: micro.versionId }]));
    expect(res.body.version.diagnostics.map((d: { severity: string; code: string }) => `${d.severity} ${d.code}`)).toEqual([
      'warning micro_journey_unpublished',
      'warning pair_pinned_to_draft',
    ]);
    const missing = await save(
      api,
      macro,
      cleanContent([{ journeyId: micro.journeyId, versionId: '0190f4a2-7c1e-7000-8000-000000000000' }]),
    );
    expect(codesOf(missing.body.version.diagnostics)).toContain('pair_version_not_found /stages/0/microJourneyPairs/0/versionId');
    const notMicro = await save(api, macro, cleanContent([{ journeyId: macro.journeyId }]));
    expect(codesOf(notMicro.body.version.diagnostics)).toEqual(
      expect.arrayContaining([
        'pair_not_micro_journey /stages/0/microJourneyPairs/0/journeyId',
        'micro_journey_cycle /stages/0/microJourneyPairs/0',
      ]),
    );
  });

  it('needs If-Match, refuses a stale one, and answers 404 for an unknown version', async () => {
    const made = await makeJourney(api);
    expectErrorEnvelope(await api.post(`${versionPath(made)}/publish`), 400, 'if_match_required');
    const stale = await api.post(`${versionPath(made)}/publish`, { headers: { 'If-Match': '"5"' } });
    expectErrorEnvelope(stale, 409, 'version_conflict');
    expect(stale.headers.get('etag')).toBe('"1"');
    expectErrorEnvelope(
      await api.post(`/journeys/${made.journeyId}/versions/0190f4a2-7c1e-7000-8000-000000000000/publish`, {
        headers: { 'If-Match': '"1"' },
      }),
      404,
      'not_found',
    );
  });
});

describe('versions: branch, relabel, discard, list', () => {
  it('branches a draft from any version, published ones included, recording its parent and source revision', async () => {
    const made = await makeJourney(api);
    expect((await save(api, made, cleanContent())).status).toBe(200);
    expect((await publish(api, made)).status).toBe(200);
    const res = await api.post(`/journeys/${made.journeyId}/versions`, {
      body: { fromVersionId: made.versionId, label: 'Summer refresh' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.version).toMatchObject({
      journeyId: made.journeyId,
      label: 'Summer refresh',
      parentVersionId: made.versionId,
      sourceRevision: 2,
      revision: 1,
      publishedAt: null,
      content: cleanContent(),
      createdBy: ws.keyId,
    });
    expect(res.headers.get('etag')).toBe('"1"');
    const second = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: res.body.version.id } });
    expect(second.body.version.label).toBe('Draft 3');
    expect((await api.get(`/journeys/${made.journeyId}`)).body.journey.versionCount).toBe(3);
    expectErrorEnvelope(
      await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: '0190f4a2-7c1e-7000-8000-000000000000' } }),
      404,
      'not_found',
    );
    expectErrorEnvelope(await api.post(`/journeys/${made.journeyId}/versions`, { body: { label: 'no source' } }), 400, 'invalid_body');
  });

  it('replays a branch under the same Idempotency-Key', async () => {
    const made = await makeJourney(api);
    const headers = { 'Idempotency-Key': `branch-${made.journeyId}` };
    const first = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId }, headers });
    const again = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId }, headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get(`/journeys/${made.journeyId}`)).body.journey.versionCount).toBe(2);
  });

  it('relabels a draft without changing its revision; published versions are locked', async () => {
    const made = await makeJourney(api);
    const res = await api.patch(versionPath(made), { body: { label: 'Renamed draft' } });
    expect(res.status).toBe(200);
    expect(res.body.version).toMatchObject({ label: 'Renamed draft', revision: 1 });
    expect(res.headers.get('etag')).toBe('"1"');
    expectErrorEnvelope(
      await api.patch(versionPath(made), { body: { label: 'x' }, headers: { 'If-Match': '"4"' } }),
      409,
      'version_conflict',
    );
    expectErrorEnvelope(await api.patch(versionPath(made), { body: { label: 'x'.repeat(101) } }), 400, 'invalid_body');
    expectErrorEnvelope(await api.patch(versionPath(made), { body: {} }), 400, 'invalid_body');
    expect((await publish(api, made)).status).toBe(200);
    expectErrorEnvelope(await api.patch(versionPath(made), { body: { label: 'x' } }), 409, 'version_locked');
  });

  it('discards drafts, never the last version nor a published one', async () => {
    const made = await makeJourney(api);
    expectErrorEnvelope(await api.delete(versionPath(made)), 409, 'last_version');
    const branch = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } });
    const draft = { journeyId: made.journeyId, versionId: branch.body.version.id };
    expectErrorEnvelope(await api.delete(versionPath(draft), { headers: { 'If-Match': '"3"' } }), 409, 'version_conflict');
    await insideOneRateLimitWindow(api, 5);
    const res = await api.delete(versionPath(draft), { headers: { 'If-Match': '"1"' } });
    expect(res.status).toBe(200);
    expect(dynamoDbCalls(res)).toBe(4);
    expectErrorEnvelope(await api.get(versionPath(draft)), 404, 'not_found');
    expectErrorEnvelope(await api.delete(versionPath(draft)), 404, 'not_found');
    expect((await api.get(`/journeys/${made.journeyId}`)).body.journey.versionCount).toBe(1);

    const again = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } });
    expect((await publish(api, made)).status).toBe(200);
    expectErrorEnvelope(await api.delete(versionPath(made)), 409, 'version_locked');
    expect((await api.delete(`/journeys/${made.journeyId}/versions/${again.body.version.id}`)).status).toBe(200);
  });

  it('lists every version with content, newest first by creation, paged with the total', async () => {
    const made = await makeJourney(api);
    const ids = [made.versionId];
    for (let i = 0; i < 3; i++)
      ids.push((await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } })).body.version.id);
    const all = await api.get(`/journeys/${made.journeyId}/versions`);
    expect(all.body.versions.map((v: { id: string }) => v.id)).toEqual([...ids].reverse());
    expect(all.body.versions[0].content).toEqual({ schema: 1, stages: [], rows: [], cells: {} });
    expect(all.body.pagination).toEqual({ limit: 25, offset: 0, total: 4, hasMore: false, nextCursor: null });
    const page = await api.get(`/journeys/${made.journeyId}/versions?limit=2&offset=1`);
    expect(page.body.versions.map((v: { id: string }) => v.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4, hasMore: true, nextCursor: expect.any(String) });
    expect((await api.get(`/journeys/${made.journeyId}/versions?offset=2147483647`)).body.versions).toEqual([]);
  });
});

describe('GET …/versions: the 5 MB page cut', () => {
  it('stops a page before its versions pass 5 MB and says more follow, whatever the limit', async () => {
    const made = await makeJourney(api);
    const saved = await save(api, made, largeContent(900_000));
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } })).status).toBe(200);
    }
    const first = await api.get(`/journeys/${made.journeyId}/versions?limit=100`);
    expect(first.status).toBe(200);
    expect(first.body.versions).toHaveLength(5);
    expect(first.body.pagination).toEqual({ limit: 100, offset: 0, total: 6, hasMore: true, nextCursor: expect.any(String) });
    expect(Buffer.byteLength(first.text)).toBeLessThan(5 * 1024 * 1024 + 64 * 1024);
    const rest = await api.get(`/journeys/${made.journeyId}/versions?limit=100&offset=5`);
    expect(rest.body.versions.map((v: { id: string }) => v.id)).toEqual([made.versionId]);
    expect(rest.body.pagination).toEqual({ limit: 100, offset: 5, total: 6, hasMore: false, nextCursor: null });
  });
});

describe('GET …/diff', () => {
  it('branch → edit → diff shows what changed, and a version against itself is empty', async () => {
    const made = await makeJourney(api);
    expect((await save(api, made, cleanContent())).status).toBe(200);
    const branch = await api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } });
    const draft = { journeyId: made.journeyId, versionId: branch.body.version.id };
    const base = cleanContent();
    const edited = {
      ...base,
      stages: [
        { ...base.stages[1]!, titleEn: 'Purchase' },
        base.stages[0]!,
        { id: 'care', titleEn: 'Care', titleAr: 'رعاية', microJourneyPairs: [] },
      ],
      rows: [base.rows[0]!],
      cells: { 'feel:discover': { score: -1, noteEn: 'Confused', noteAr: 'مرتبك' }, 'feel:care': { score: 2 } },
    };
    expect((await save(api, draft, edited)).status).toBe(200);

    const res = await api.get(`${versionPath(draft)}/diff?against=${made.versionId}`);
    expect(res.status).toBe(200);
    expect(res.body.diff).toEqual({
      stages: { added: ['care'], removed: [], renamed: ['buy'], moved: [expect.any(String)] },
      rows: { added: [], removed: ['via'], renamed: [], moved: [], retyped: [] },
      cells: { added: ['feel:care'], removed: ['via:buy'], changed: ['feel:discover'] },
      pairs: { added: [], removed: [], changed: [] },
    });
    const self = await api.get(`${versionPath(draft)}/diff?against=${draft.versionId}`);
    for (const group of Object.values(self.body.diff) as Record<string, string[]>[])
      for (const ids of Object.values(group)) expect(ids).toEqual([]);
  });

  it('needs `against`, and answers 404 when either version is unknown', async () => {
    const made = await makeJourney(api);
    expectErrorEnvelope(await api.get(`${versionPath(made)}/diff`), 400, 'invalid_query');
    expectErrorEnvelope(await api.get(`${versionPath(made)}/diff?against=0190f4a2-7c1e-7000-8000-000000000000`), 404, 'not_found');
  });
});

describe('POST /journeys/validate', () => {
  it('diagnoses without storing anything, and applies the same body rules', async () => {
    const content = { schema: 1, stages: [{ id: 's', titleEn: 'S', microJourneyPairs: [] }], rows: [], cells: {} };
    const res = await api.post('/journeys/validate', { body: { content } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      diagnostics: [
        { severity: 'warning', code: 'missing_translation', message: expect.any(String), path: '/stages/0/titleAr' },
        { severity: 'warning', code: 'stage_without_cells', message: expect.any(String), path: '/stages/0' },
      ],
    });
    expectErrorEnvelope(await api.post('/journeys/validate', { body: { content: { schema: 1 } } }), 400, 'invalid_body');
    expectErrorEnvelope(await api.post('/journeys/validate', { body: {} }), 400, 'invalid_body');
  });
});
