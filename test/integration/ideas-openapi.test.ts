/** The OpenAPI document describes every Ideas operation: permissions, bodies, headers and errors. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/fixtures.ts';
import { inlineRefs } from '../support/openapi-refs.ts';

let doc: any;

beforeAll(async () => {
  doc = inlineRefs((await call('GET', '/openapi.json')).body);
});

const OPERATIONS = [
  ['get', '/ideas', 'listIdeas', 'ideas:read', '200', false],
  ['post', '/ideas', 'createIdea', 'ideas:write', '201', true],
  ['get', '/ideas/labels', 'getIdeaLabels', 'ideas:read', '200', false],
  ['get', '/ideas/similar', 'findSimilarIdeas', 'ideas:read', '200', false],
  ['get', '/ideas/{id}', 'getIdea', 'ideas:read', '200', false],
  ['put', '/ideas/{id}', 'replaceIdea', 'ideas:write', '200', true],
  ['patch', '/ideas/{id}', 'updateIdea', 'ideas:write', '200', true],
  ['delete', '/ideas/{id}', 'deleteIdea', 'ideas:delete', '200', true],
] as const;

describe('OpenAPI: Ideas', () => {
  it('describes similar ideas: each with the idea, its score and the shared words, also as the possible duplicates of a create', () => {
    const similar = doc.paths['/ideas/similar'].get;
    const query = similar.parameters.filter((p: { in: string }) => p.in === 'query');
    expect(query.map((p: { name: string }) => p.name).sort()).toEqual(['limit', 'q']);
    const match = similar.responses['200'].content['application/json'].schema.properties.data.items;
    expect(Object.keys(match.properties).sort()).toEqual(['idea', 'matchedTerms', 'score']);
    const created = doc.paths['/ideas'].post.responses['201'].content['application/json'].schema;
    expect(created.properties.possibleDuplicates.items).toEqual(match);
    expect(created.required).not.toContain('possibleDuplicates');
  });

  it.each(OPERATIONS)(
    '%s %s is %s, needs %s, answers %s and lists its errors',
    (method, path, operationId, permission, success, conflicts) => {
      const op = doc.paths[path][method];
      expect(op.operationId).toBe(operationId);
      expect(op.tags).toEqual(['Ideas']);
      expect(op['x-permissions']).toEqual([permission]);
      expect(op.description).toContain('Module: ideas.');
      expect(op.responses[success].content['application/json'].schema).toBeDefined();
      const errors = Object.keys(op.responses)
        .filter((s) => s !== success)
        .sort();
      // Every idea write with a body (POST, PUT, PATCH) also lists 415 unsupported_media_type.
      const takesBody = ['post', 'put', 'patch'].includes(method) ? ['415'] : [];
      expect(errors).toEqual([...['400', '401', '403', '404'], ...(conflicts ? ['409'] : []), ...takesBody, '429', '502', '503']);
    },
  );

  it('documents the idea record without any private field', () => {
    const idea = doc.paths['/ideas/{id}'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(idea.properties).sort()).toEqual(
      [
        'createdAt',
        'description',
        'id',
        // Issue 39: the voice of the customer (votes, importance, merges, the message voters hear).
        'importance',
        'mergedFrom',
        'mergedInto',
        'moderationStatus',
        'module',
        'priority',
        'status',
        'statusMessage',
        'statusMessageAr',
        'title',
        'titleAr',
        'updatedAt',
        'version',
        'visibility',
        'voteCount',
      ].sort(),
    );
  });

  it('documents the IdeaWrite limits, the required title and that unknown fields are refused', () => {
    const body = doc.paths['/ideas'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['title']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.title.maxLength).toBe(160);
    expect(body.properties.description.anyOf[0].maxLength).toBe(4000);
    expect(body.properties.status.anyOf[0].maxLength).toBe(100);
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['submitter', 'customerContext']));
  });

  it('documents ETag, If-Match, Idempotency-Key and what each 409 means', () => {
    const patch = doc.paths['/ideas/{id}'].patch;
    expect(patch.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['id', 'If-Match']));
    expect(patch.responses['200'].headers.ETag).toBeDefined();
    expect(patch.responses['409'].description).toContain('version_conflict');
    const create = doc.paths['/ideas'].post;
    expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(create.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    expect(create.responses['409'].description).toContain('idempotency_key_reused');
    const list = doc.paths['/ideas'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'offset']));
    expect(list.responses['200'].content['application/json'].schema.properties.pagination.required).toEqual(
      expect.arrayContaining(['limit', 'offset', 'total', 'hasMore']),
    );
  });
});
