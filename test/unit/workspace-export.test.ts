/**
 * The workspace export's rules (lib/admin/workspace-export.ts): every kind of item the code writes
 * under a workspace is either exported or counted as left out, and an exported line carries no
 * secret, no hash and none of the table's bookkeeping, with stored documents as readable JSON.
 * The export of a real workspace, end to end, is test/integration/workspace-offboarding.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AdminError } from '../../lib/admin/table-client.ts';
import { EXPORT_RULES, exportLineOf } from '../../lib/admin/workspace-export.ts';
import { ENTITIES } from '../../lib/entities.ts';

const LIB = resolve(import.meta.dirname, '../../lib');
/** Items outside every workspace's partition: not a tenant's data. */
const TABLE_LEVEL = ['OperatorJob', 'TableMigration', 'RestoreMark'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every `entity` value the code writes: each declared entity (lib/entities.ts), and `entity: 'X'`, `…ENTITY = 'X'`, `.set('entity', 'X')` where one is written without a declaration. */
function writtenEntities(): Set<string> {
  const found = new Set<string>(ENTITIES.map((entity) => entity.name));
  for (const file of sources(LIB)) {
    if (file.endsWith('workspace-export.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of [/entity: '([A-Z]\w+)'/g, /ENTITY\w* = '([A-Z]\w+)'/g, /\.set\('entity', '([A-Z]\w+)'\)/g])
      for (const match of text.matchAll(pattern)) found.add(match[1]!);
  }
  for (const name of TABLE_LEVEL) found.delete(name);
  return found;
}

describe('the workspace export rules', () => {
  it('account for every kind of item the code writes in a workspace, and name no other', () => {
    const written = writtenEntities();
    expect(written.size).toBeGreaterThan(30);
    expect([...written].filter((entity) => !EXPORT_RULES[entity]).sort()).toEqual([]);
    expect(Object.keys(EXPORT_RULES).filter((entity) => !written.has(entity))).toEqual([]);
  });

  it('refuse an item of a kind they do not know rather than leave it out', () => {
    expect(() => exportLineOf({ pk: 'WS#a', sk: 'NEW#1', entity: 'SomethingNew' })).toThrow(AdminError);
    expect(() => exportLineOf({ pk: 'WS#a', sk: 'NEW#1' })).toThrow(/does not know/);
  });

  it('write no secret, no hash and none of the table bookkeeping', () => {
    const key = exportLineOf({
      pk: 'WS#a',
      sk: 'KEY#abc',
      gsi1pk: 'KEYID#abc',
      gsi1sk: 'KEY',
      entity: 'DeveloperKey',
      workspace: 'a',
      id: 'abc',
      name: 'CI',
      permissions: ['ideas:read'],
      secretHash: 'deadbeef',
      tokenHint: 'cxk_abc…',
      rlWindow: 1,
      rlCount: 3,
      rlWindows: { '29000001': 3 },
    });
    expect(key).toEqual({ type: 'developerKey', data: { id: 'abc', name: 'CI', permissions: ['ideas:read'] } });
    const webhook = exportLineOf({
      pk: 'WS#a',
      sk: 'WEBHOOK#1',
      entity: 'Webhook',
      id: '1',
      url: 'https://x',
      secret: 'whsec_x',
      secretPrefix: 'whsec_',
    });
    expect(webhook).toEqual({ type: 'webhook', data: { id: '1', url: 'https://x' } });
    const idea = exportLineOf({
      pk: 'WS#a',
      sk: 'IDEA#1',
      entity: 'Idea',
      id: '1',
      submitter: { email: 'a@b.c' },
      submitterHash: 'h',
      lock: 2,
      ttl: 9,
    });
    expect(idea).toEqual({ type: 'idea', data: { id: '1', submitter: { email: 'a@b.c' } } });
    const response = exportLineOf({
      pk: 'WS#a',
      sk: 'SURVEYRESPONSE#s#r',
      entity: 'SurveyResponse',
      id: 'r',
      respondentEmail: 'Ana@Example.com',
      respondentIndex: ['h1'],
    });
    expect(response).toEqual({ type: 'surveyResponse', data: { id: 'r', respondentEmail: 'Ana@Example.com' } });
  });

  it('count derived and short-lived items as left out', () => {
    expect(exportLineOf({ pk: 'WS#a', sk: 'SURVEYRESPONDENT#h#s#r', entity: 'SurveyRespondent' })).toEqual({
      leftOut: 'derived',
      what: 'indexes',
    });
    expect(exportLineOf({ pk: 'WS#a', sk: 'IDEMPOTENCY#x', entity: 'IdempotencyRecord', response: '{"secret":"whsec_x"}' })).toEqual({
      leftOut: 'transient',
      what: 'remembered create responses',
    });
  });

  it('write stored documents as the JSON they hold, and sets as sorted lists', () => {
    const content = { stages: [{ id: 'discover', titleEn: 'Discover', titleAr: 'الاكتشاف' }] };
    const line = exportLineOf({
      pk: 'WS#a',
      sk: 'JOURNEY#j#V#v',
      entity: 'JourneyVersion',
      content: new Uint8Array(brotliCompressSync(JSON.stringify(content))),
      legacy: new Uint8Array(deflateRawSync(JSON.stringify({ old: true }))),
      opaque: new Uint8Array([1, 2, 3]),
      tags: new Set(['b', 'a']),
    });
    expect(line).toEqual({
      type: 'journeyVersion',
      data: { content, legacy: { old: true }, opaque: { base64: 'AQID' }, tags: ['a', 'b'] },
    });
  });
});
