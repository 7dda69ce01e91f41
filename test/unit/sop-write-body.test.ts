/** The SOP write body schema: the edges of references and text that the HTTP tests do not walk one by one. */
import { describe, expect, it } from 'vitest';
import { sopContentOf } from '../../lib/sops/content.ts';
import { sendBackBody, sopIdParams, sopWriteBody } from '../../lib/sops/schemas.ts';

const base = { titleEn: 'Title', type: 'complaint' } as const;

function escalation(reference: unknown) {
  return sopWriteBody.safeParse({ ...base, escalationLevel1: reference });
}

describe('SOP write body', () => {
  it.each(['user:42', 'user:0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e', 'role:Shift Supervisor', 'role:مشرف', `role:${'r'.repeat(200)}`])(
    'accepts the legacy reference %s as given',
    (reference) => {
      const parsed = escalation(reference);
      expect(parsed.success).toBe(true);
      expect(parsed.data?.escalationLevel1).toBe(reference);
    },
  );

  it.each([
    ['an empty id', 'user:'],
    ['a leading space', 'user: 42'],
    ['a trailing space', 'role:lead '],
    ['a control character', 'role:le\nad'],
    ['a too long name', `role:${'r'.repeat(201)}`],
    ['an upper-case prefix', 'USER:42'],
    ['another prefix', 'team:ops'],
    ['a bare name', 'Omar'],
    ['a truncated UUID', '0b7e6b3e-9a43-4c5e-8f6f'],
    ['a number', 42],
  ])('rejects %s', (_name, reference) => {
    const parsed = escalation(reference);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.some((issue) => issue.path.join('.') === 'escalationLevel1')).toBe(true);
  });

  it('lower-cases directory ids (as the directory stores them) but keeps legacy references verbatim', () => {
    const parsed = sopWriteBody.parse({
      ...base,
      departmentId: '5F0C2A8E-3B1D-4E6F-9A7B-2C3D4E5F6A7B',
      escalationLevel1: '0B7E6B3E-9A43-4C5E-8F6F-1F2A3B4C5D6E',
      escalationLevel2: 'user:ABC',
    });
    expect(parsed.departmentId).toBe('5f0c2a8e-3b1d-4e6f-9a7b-2c3d4e5f6a7b');
    expect(parsed.escalationLevel1).toBe('0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e');
    expect(parsed.escalationLevel2).toBe('user:ABC');
  });

  it('turns omitted and null optional fields into null content, and missing steps into none', () => {
    const content = sopContentOf(sopWriteBody.parse({ titleAr: 'عنوان', titleEn: null, type: 'inquiry', descriptionEn: null }));
    expect(content).toEqual({
      titleEn: null,
      titleAr: 'عنوان',
      type: 'inquiry',
      departmentId: null,
      descriptionEn: null,
      descriptionAr: null,
      steps: [],
      escalationLevel1: null,
      escalationLevel2: null,
      escalationLevel3: null,
    });
  });

  it('reports a missing title and a missing escalation together', () => {
    const parsed = sopWriteBody.safeParse({ type: 'incident' });
    expect(parsed.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['escalationLevel1', 'titleEn']);
  });

  it('rejects an empty title once, with one clear message', () => {
    const parsed = sopWriteBody.safeParse({ ...base, titleEn: '', escalationLevel1: 'role:x', titleAr: 'x' });
    expect(parsed.error?.issues).toHaveLength(1);
  });
});

describe('send-back body and SOP id', () => {
  it('needs non-blank feedback of at most 4000 characters and nothing else', () => {
    expect(sendBackBody.safeParse({ feedback: 'Please add step 3' }).success).toBe(true);
    expect(sendBackBody.safeParse({ feedback: 'x'.repeat(4000) }).success).toBe(true);
    for (const body of [{}, { feedback: '' }, { feedback: ' \n ' }, { feedback: 'x'.repeat(4001) }, { feedback: 'ok', kind: 'note' }]) {
      expect(sendBackBody.safeParse(body).success, JSON.stringify(body).slice(0, 40)).toBe(false);
    }
  });

  it('accepts only ids whose characters sort after "#", so an id range never spans another SOP', () => {
    expect(sopIdParams.safeParse({ id: '0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e' }).success).toBe(true);
    for (const id of ['', 'a!b', 'a#b', 'a b', 'a'.repeat(65)]) expect(sopIdParams.safeParse({ id }).success, id).toBe(false);
  });
});
