/** Stream records of idea items become identifier-only events; everything else is ignored. */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { eventBody, eventFromStreamRecord, eventIdOf } from '../../lib/webhooks/events.ts';
import { ideaAndResponseChanges } from '../../lib/webhooks/pipeline.ts';
import { matchesFilter } from '../../local/event-source-mappings.ts';

type Image = Record<string, { S?: string; N?: string }>;

function idea(fields: { status?: string; version?: number; entity?: string; title?: string; updatedAt?: string } = {}): Image {
  const image: Image = {
    pk: { S: 'WS#acme' },
    sk: { S: 'IDEA#i1' },
    entity: { S: fields.entity ?? 'Idea' },
    id: { S: 'i1' },
    workspace: { S: 'acme' },
    version: { N: String(fields.version ?? 1) },
    title: { S: fields.title ?? 'Secret plan' },
    submitterEmail: { S: 'jane@example.com' },
  };
  if (fields.status) image.status = { S: fields.status };
  if (fields.updatedAt) image.updatedAt = { S: fields.updatedAt };
  return image;
}

function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', images: { old?: Image; new?: Image }, sequence = '100'): DynamoDBRecord {
  return {
    eventID: `id-${sequence}`,
    eventName,
    dynamodb: {
      ApproximateCreationDateTime: 1_767_225_600,
      SequenceNumber: sequence,
      OldImage: images.old as never,
      NewImage: images.new as never,
    },
  };
}

describe('eventFromStreamRecord', () => {
  it('maps create, status change, other edit and delete', () => {
    expect(eventFromStreamRecord(record('INSERT', { new: idea() }))).toMatchObject({
      type: 'idea.submitted',
      data: { ideaId: 'i1', workspace: 'acme' },
    });
    expect(
      eventFromStreamRecord(record('MODIFY', { old: idea({ status: 'new' }), new: idea({ status: 'planned', version: 2 }) })),
    ).toMatchObject({
      type: 'idea.status_changed',
      data: { ideaId: 'i1', workspace: 'acme', previousStatus: 'new', status: 'planned' },
    });
    expect(eventFromStreamRecord(record('MODIFY', { old: idea(), new: idea({ status: 'new', version: 2 }) }))?.data).toEqual({
      ideaId: 'i1',
      workspace: 'acme',
      previousStatus: null,
      status: 'new',
      statusMessage: null,
      statusMessageAr: null,
      voterCount: 0,
    });
    // What voters hear (issue 39): the message written with the status and how many had voted then.
    const told = idea({ status: 'done', version: 3 });
    Object.assign(told, { statusMessage: { S: 'Shipped in 4.2' }, statusMessageAr: { S: 'صدر في 4.2' }, statusVoterCount: { N: '42' } });
    expect(eventFromStreamRecord(record('MODIFY', { old: idea({ status: 'planned', version: 2 }), new: told }))?.data).toEqual({
      ideaId: 'i1',
      workspace: 'acme',
      previousStatus: 'planned',
      status: 'done',
      statusMessage: 'Shipped in 4.2',
      statusMessageAr: 'صدر في 4.2',
      voterCount: 42,
    });
    expect(eventFromStreamRecord(record('MODIFY', { old: idea(), new: idea({ title: 'Other', version: 2 }) }))?.type).toBe('idea.updated');
    expect(eventFromStreamRecord(record('REMOVE', { old: idea() }))?.type).toBe('idea.deleted');
  });

  it('ignores other entities and rewrites that did not bump the version', () => {
    expect(eventFromStreamRecord(record('INSERT', { new: idea({ entity: 'IdeaCounter' }) }))).toBeNull();
    expect(eventFromStreamRecord(record('REMOVE', { old: idea({ entity: 'IdempotencyRecord' }) }))).toBeNull();
    expect(eventFromStreamRecord(record('MODIFY', { old: idea(), new: idea() }))).toBeNull();
  });

  it('puts identifiers only in the body, never titles or submitter data', () => {
    const event = eventFromStreamRecord(record('INSERT', { new: idea({ updatedAt: '2026-01-01T00:00:01.500Z' }) }))!;
    const body = eventBody(event);
    expect(JSON.parse(body)).toEqual({
      type: 'idea.submitted',
      timestamp: '2026-01-01T00:00:01.500Z',
      data: { ideaId: 'i1', workspace: 'acme' },
    });
    expect(body).not.toContain('Secret plan');
    expect(body).not.toContain('jane@example.com');
  });
});

describe('event ids', () => {
  it('are stable for a record and sort by time, then stream order', () => {
    const a = record('INSERT', { new: idea() }, '99');
    expect(eventIdOf(a)).toBe(eventIdOf({ ...a }));
    expect(eventIdOf(a)).toMatch(/^evt_[0-9a-z]{39}$/);
    const later = record('INSERT', { new: idea() }, '100');
    expect(eventIdOf(later) > eventIdOf(a)).toBe(true);
    const nextSecond = { ...a, dynamodb: { ...a.dynamodb, ApproximateCreationDateTime: 1_767_225_601 } };
    expect(eventIdOf(nextSecond) > eventIdOf(later)).toBe(true);
  });
});

describe('the fan-out filter criteria', () => {
  const passes = (r: DynamoDBRecord) => ideaAndResponseChanges.filters.some((f) => matchesFilter(f, r));

  it('let idea inserts, updates and deletes through and nothing else', () => {
    expect(passes(record('INSERT', { new: idea() }))).toBe(true);
    expect(passes(record('MODIFY', { old: idea(), new: idea({ version: 2 }) }))).toBe(true);
    expect(passes(record('REMOVE', { old: idea() }))).toBe(true);
    expect(passes(record('INSERT', { new: idea({ entity: 'WebhookDelivery' }) }))).toBe(false);
    expect(passes(record('MODIFY', { old: idea({ entity: 'DeveloperKey' }), new: idea({ entity: 'DeveloperKey' }) }))).toBe(false);
  });
});
