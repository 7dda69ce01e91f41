/** The SOP and review-comment items and their mapping to API records. */
import type { SopStatus, SopType } from './schemas.ts';

export interface SopStep {
  titleEn: string | null;
  titleAr: string | null;
  body: string | null;
}

/** What the write body sets: every field, null where not given (a PUT replaces all of them). */
export interface SopContent {
  titleEn: string | null;
  titleAr: string | null;
  type: SopType;
  departmentId: string | null;
  descriptionEn: string | null;
  descriptionAr: string | null;
  steps: SopStep[];
  escalationLevel1: string | null;
  escalationLevel2: string | null;
  escalationLevel3: string | null;
}

export interface Sop extends SopContent {
  id: string;
  serial: number;
  status: SopStatus;
  createdAt: string;
  updatedAt: string;
  submittedAt: string | null;
  publishedAt: string | null;
  approvedBy: string | null;
}

export interface SopComment {
  id: string;
  kind: 'send_back';
  feedback: string;
  createdAt: string;
  createdBy: string;
}

/** Content attributes, in the order the record lists them: the allow-list for every update expression. */
export const CONTENT_FIELDS = [
  'titleEn',
  'titleAr',
  'type',
  'departmentId',
  'descriptionEn',
  'descriptionAr',
  'steps',
  'escalationLevel1',
  'escalationLevel2',
  'escalationLevel3',
] as const satisfies readonly (keyof SopContent)[];

const nullable = (value: unknown) => (value as string | undefined) ?? null;

/** Steps are stored without their unset fields and read back with nulls. */
export function storedSteps(steps: SopStep[]): Record<string, string>[] {
  return steps.map((step) => Object.fromEntries(Object.entries(step).filter(([, v]) => v !== null)) as Record<string, string>);
}

export function toSop(item: Record<string, unknown>): Sop {
  return {
    id: item.id as string,
    serial: item.serial as number,
    status: item.status as SopStatus,
    titleEn: nullable(item.titleEn),
    titleAr: nullable(item.titleAr),
    type: item.type as SopType,
    departmentId: nullable(item.departmentId),
    descriptionEn: nullable(item.descriptionEn),
    descriptionAr: nullable(item.descriptionAr),
    steps: ((item.steps as Record<string, unknown>[] | undefined) ?? []).map((step) => ({
      titleEn: nullable(step.titleEn),
      titleAr: nullable(step.titleAr),
      body: nullable(step.body),
    })),
    escalationLevel1: nullable(item.escalationLevel1),
    escalationLevel2: nullable(item.escalationLevel2),
    escalationLevel3: nullable(item.escalationLevel3),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    submittedAt: nullable(item.submittedAt),
    publishedAt: nullable(item.publishedAt),
    approvedBy: nullable(item.approvedBy),
  };
}

export function toSopComment(item: Record<string, unknown>): SopComment {
  return {
    id: item.id as string,
    kind: item.kind as 'send_back',
    feedback: item.feedback as string,
    createdAt: item.createdAt as string,
    createdBy: item.createdBy as string,
  };
}
