/** lib/platform/openapi-components.ts: named shapes become components, referenced, split by direction only when they differ. */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ComponentSchemas } from '../../lib/platform/openapi-components.ts';
import { named } from '../../lib/platform/schemas.ts';

const convert = (components: ComponentSchemas, schema: z.ZodMiniType, io: 'input' | 'output') => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Record<string, unknown>;
  return components.adopt(json, io);
};

describe('ComponentSchemas', () => {
  it('hoists a named shape into one component and refers to it from every use', () => {
    const tag = named('TestTag', z.strictObject({ name: z.string() }));
    const components = new ComponentSchemas();
    const list = convert(components, z.object({ tags: z.array(tag) }), 'output');
    const body = convert(components, z.strictObject({ tag }), 'input');
    const { document, schemas } = components.resolve({ list, body });
    expect(schemas).toEqual({
      TestTag: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    });
    expect(document.list).toMatchObject({ properties: { tags: { items: { $ref: '#/components/schemas/TestTag' } } } });
    // A strict object reads the same both ways: the request refers to the same component.
    expect(document.body).toMatchObject({ properties: { tag: { $ref: '#/components/schemas/TestTag' } } });
  });

  it('documents a shape accepted differently from how it is answered as XInput, and every shape that contains it', () => {
    const note = named('TestNote', z.object({ text: z._default(z.string(), '') }));
    const card = named('TestCard', z.strictObject({ note }));
    const components = new ComponentSchemas();
    const answer = convert(components, card, 'output');
    const request = convert(components, z.strictObject({ card }), 'input');
    const { document, schemas } = components.resolve({ answer, request });
    expect(Object.keys(schemas)).toEqual(['TestCard', 'TestCardInput', 'TestNote', 'TestNoteInput']);
    expect(document.answer).toEqual({ $ref: '#/components/schemas/TestCard' });
    expect(document.request).toMatchObject({ properties: { card: { $ref: '#/components/schemas/TestCardInput' } } });
    expect(schemas.TestCardInput).toMatchObject({ properties: { note: { $ref: '#/components/schemas/TestNoteInput' } } });
    // As answered, `text` is always there; as accepted, it may be left out (and unknown members are not refused).
    expect(schemas.TestNote).toMatchObject({ required: ['text'], additionalProperties: false });
    expect(schemas.TestNoteInput).not.toHaveProperty('required');
    expect(schemas.TestNoteInput).not.toHaveProperty('additionalProperties');
  });

  it('refuses two different shapes under one name', () => {
    const first = named('TestTwice', z.strictObject({ a: z.string() }));
    const second = named('TestTwice', z.strictObject({ b: z.string() }));
    const components = new ComponentSchemas();
    convert(components, z.strictObject({ first }), 'output');
    expect(() => convert(components, z.strictObject({ second }), 'output')).toThrow(/Two different schemas are named TestTwice/);
  });
});
