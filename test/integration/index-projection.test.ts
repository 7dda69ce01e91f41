/**
 * gsi1 holds only what its queries read: no key hash, webhook secret or idea submitter is copied
 * into it, yet the SOP list (which reads gsi1) still shows every field GET /sops/{id} shows.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lib/platform/data/keys.ts';
import { TABLE } from '../../lib/platform/data/table.ts';
import { sopEntity } from '../../lib/sops/entities.ts';
import { adminStore, clientFor, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { importTestDirectory } from '../support/sop-fixtures.ts';

/** Attribute names that hold a secret or personal data somewhere in the table. */
const SECRET_OR_PERSONAL = /secret|hash|submitter|customer|email|phone|token/i;

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await newWorkspace('projection');
});

async function gsi1Items(pk: string): Promise<Record<string, unknown>[]> {
  // The index is eventually consistent, also in DynamoDB Local: give it a moment.
  for (let attempt = 0; ; attempt++) {
    const { Items = [] } = await adminStore().db.send(
      new QueryCommand({
        TableName: adminStore().table,
        IndexName: TABLE.gsi1.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      }),
    );
    if (Items.length > 0 || attempt >= 20) return Items;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('gsi1', () => {
  it('copies no secret or personal attribute of a key item', async () => {
    const [item] = await gsi1Items(keys.developerKeyLookup(ws.keyId).gsi1pk);
    expect(item).toBeDefined();
    expect(item!.workspace).toBe(ws.slug);
    expect(Object.keys(item!).filter((name) => SECRET_OR_PERSONAL.test(name))).toEqual([]);
    expect(item).not.toHaveProperty('permissions');
  });

  it('lists SOPs with every field the record has, and nothing secret or personal', async () => {
    const api = clientFor(ws);
    const directory = await importTestDirectory(ws);
    const created = await api.post('/sops', {
      body: {
        titleEn: 'Refund a double charge',
        titleAr: 'استرداد',
        type: 'complaint',
        departmentId: directory.teams.billing,
        descriptionEn: 'When a card was charged twice',
        descriptionAr: 'وصف',
        steps: [{ titleEn: 'Check', body: 'Look at the ledger' }],
        escalationLevel1: directory.people.amal,
        escalationLevel2: directory.teams.care,
        escalationLevel3: 'role:manager',
      },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.sop.id as string;
    expect((await api.post(`/sops/${id}/submit`)).status).toBe(200);
    expect((await api.post(`/sops/${id}/approve`)).status).toBe(200);
    const single = (await api.get(`/sops/${id}`)).body.sop;

    for (let attempt = 0; ; attempt++) {
      const listed = ((await api.get('/sops')).body.sops as { id: string; status: string }[]).find((s) => s.id === id);
      if (listed?.status === 'published' || attempt >= 20) {
        expect(listed).toEqual(single);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const item of await gsi1Items(sopEntity.keys.listingPk(ws.slug))) {
      expect(Object.keys(item).filter((name) => SECRET_OR_PERSONAL.test(name))).toEqual([]);
    }
  });
});
