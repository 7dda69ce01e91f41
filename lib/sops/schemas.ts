/**
 * Schemas of the SOPs area: the write body shared by POST /sops and PUT /sops/{id}, the SOP and
 * review-comment records, and the directory entries. Lengths are chosen so the largest possible
 * SOP still fits one DynamoDB item (400 KB) even in three-byte UTF-8 characters.
 */
import * as z from 'zod/mini';
import { named, timestamp } from '../platform/schemas.ts';

const SOP_TYPES = ['inquiry', 'complaint', 'request', 'incident', 'general'] as const;
export type SopType = (typeof SOP_TYPES)[number];

const SOP_STATUSES = ['draft', 'under_review', 'published'] as const;
export type SopStatus = (typeof SOP_STATUSES)[number];

export const SOP_LIMITS = {
  title: 200,
  description: 4000,
  steps: 40,
  stepTitle: 200,
  stepBody: 2000,
  feedback: 4000,
  legacyReference: 200,
} as const;

/** Any UUID-shaped string, any version: the directory decides whether it names something. */
const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** `user:<id>` or `role:<name>`: references from before the directory existed, kept verbatim. */
const LEGACY_REFERENCE = new RegExp(`^(user|role):\\S(?:[^\\p{Cc}]{0,${SOP_LIMITS.legacyReference - 2}}\\S)?$`, 'u');

export function isDirectoryIdShape(value: string): boolean {
  return UUID_SHAPE.test(value);
}

/** Non-blank text of at most `max` characters, stored as given. */
function text(max: number) {
  return z.string().check(
    z.minLength(1),
    z.maxLength(max),
    z.refine((v) => v.length === 0 || v.trim().length > 0, 'must not be blank'),
  );
}

/** An optional field: omitted or null both mean "not set" (PUT is a full replacement, so it clears it). */
function optional<T extends z.ZodMiniType>(schema: T) {
  return z.optional(z.nullable(schema));
}

// Directory ids are compared as stored (lower case); upper-case input is accepted and normalised.
const directoryId = z
  .string()
  .check(z.regex(UUID_SHAPE, 'must be a team id from GET /sops/directory'), z.toLowerCase())
  .register(z.globalRegistry, { description: 'An active team id from GET /sops/directory' });

const escalationReference = z
  .string()
  .check(
    z.refine(
      (v) => UUID_SHAPE.test(v) || LEGACY_REFERENCE.test(v),
      'must be a person or team id from GET /sops/directory, or a legacy reference "user:<id>" or "role:<name>"',
    ),
    z.overwrite((v) => (UUID_SHAPE.test(v) ? v.toLowerCase() : v)),
  )
  .register(z.globalRegistry, {
    description:
      'An active person or team id from GET /sops/directory, or a legacy reference `user:<id>` / `role:<name>` ' +
      `(the part after the prefix at most ${SOP_LIMITS.legacyReference} characters, no leading or trailing space; stored as given)`,
  });

/** JSON Schema for "at least one of these properties is set to a string" (null means not set). */
function atLeastOneOf(names: readonly string[]) {
  return names.map((name) => ({ required: [name], properties: { [name]: { type: 'string' } } }));
}

const sopStepWrite = z
  .strictObject({
    titleEn: optional(text(SOP_LIMITS.stepTitle)),
    titleAr: optional(text(SOP_LIMITS.stepTitle)),
    body: optional(text(SOP_LIMITS.stepBody)),
  })
  .check(
    z.refine((step) => Boolean(step.titleEn || step.titleAr || step.body), {
      message: 'a step needs titleEn, titleAr or body',
    }),
  )
  // The refinement above, in the OpenAPI document: at least one of the three is a string (not null).
  .register(z.globalRegistry, { anyOf: atLeastOneOf(['titleEn', 'titleAr', 'body']) });

const ESCALATION_LEVELS = ['escalationLevel1', 'escalationLevel2', 'escalationLevel3'] as const;

export const sopWriteBody = z
  .strictObject({
    titleEn: optional(text(SOP_LIMITS.title)),
    titleAr: optional(text(SOP_LIMITS.title)),
    type: z.enum(SOP_TYPES).register(z.globalRegistry, {
      description: 'inquiry, complaint, request, incident or general; only inquiry SOPs may omit escalationLevel1',
    }),
    departmentId: optional(directoryId),
    descriptionEn: optional(text(SOP_LIMITS.description)),
    descriptionAr: optional(text(SOP_LIMITS.description)),
    steps: z._default(z.array(sopStepWrite).check(z.maxLength(SOP_LIMITS.steps)), []),
    escalationLevel1: optional(escalationReference),
    escalationLevel2: optional(escalationReference),
    escalationLevel3: optional(escalationReference),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (!body.titleEn && !body.titleAr) {
        ctx.addIssue({ code: 'custom', path: ['titleEn'], message: 'give titleEn, titleAr or both', input: body });
      }
      if (body.type !== 'inquiry' && !body.escalationLevel1) {
        ctx.addIssue({ code: 'custom', path: ['escalationLevel1'], message: 'is required unless type is "inquiry"', input: body });
      }
      // Levels escalate in order: a second level without a first is a client mistake worth catching.
      for (const [i, level] of ESCALATION_LEVELS.entries()) {
        const previous = ESCALATION_LEVELS[i - 1];
        if (previous && body[level] && !body[previous]) {
          ctx.addIssue({ code: 'custom', path: [level], message: `needs ${previous} to be set as well`, input: body });
        }
      }
    }),
  )
  .register(z.globalRegistry, { anyOf: atLeastOneOf(['titleEn', 'titleAr']) });
export type SopWriteBody = z.output<typeof sopWriteBody>;

export const sendBackBody = z.strictObject({
  feedback: text(SOP_LIMITS.feedback).register(z.globalRegistry, {
    description: `What the author should change (1-${SOP_LIMITS.feedback} characters); kept as a review comment`,
  }),
});

/** SOP ids are generated UUIDs; the pattern also keeps an id's item-collection range exact (see keys.ts). */
export const sopIdParams = z.strictObject({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an SOP id')),
});

const sopStep = named(
  'SopStep',
  z.object({
    titleEn: z.nullable(z.string()),
    titleAr: z.nullable(z.string()),
    body: z.nullable(z.string()),
  }),
);

export const sopRecord = named(
  'Sop',
  z.object({
    id: z.string(),
    serial: z.int().register(z.globalRegistry, {
      description:
        'Department serial: unique within the department (or, without a department, within the workspace) and never reused. ' +
        'Moving an SOP to another department gives it the next serial there.',
    }),
    status: z.enum(SOP_STATUSES),
    titleEn: z.nullable(z.string()),
    titleAr: z.nullable(z.string()),
    type: z.enum(SOP_TYPES),
    departmentId: z.nullable(z.string()),
    descriptionEn: z.nullable(z.string()),
    descriptionAr: z.nullable(z.string()),
    steps: z.array(sopStep),
    escalationLevel1: z.nullable(z.string()),
    escalationLevel2: z.nullable(z.string()),
    escalationLevel3: z.nullable(z.string()),
    createdAt: timestamp,
    updatedAt: timestamp,
    submittedAt: z.nullable(timestamp).register(z.globalRegistry, {
      description: 'When the SOP was submitted for review; null while it is a draft',
    }),
    publishedAt: z.nullable(timestamp).register(z.globalRegistry, {
      description: 'When the SOP was approved; null unless it is published',
    }),
    approvedBy: z.nullable(z.string()).register(z.globalRegistry, {
      description: 'Id of the Developer key that approved it; null unless it is published',
    }),
  }),
);

export const sopComment = named(
  'SopComment',
  z.object({
    id: z.string(),
    kind: z.literal('send_back'),
    feedback: z.string(),
    createdAt: timestamp,
    createdBy: z.string().register(z.globalRegistry, { description: 'Id of the Developer key that sent the SOP back' }),
  }),
);

export const directoryPerson = named(
  'DirectoryPerson',
  z.object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    active: z.boolean(),
    sourceUserId: z.nullable(z.uuid()),
  }),
);

export const directoryTeam = named(
  'DirectoryTeam',
  z.object({
    id: z.uuid(),
    name: z.string(),
    active: z.boolean(),
    sourceDepartmentId: z.nullable(z.uuid()),
  }),
);
