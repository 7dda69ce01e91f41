/**
 * Business rules of ideas that depend on more than a request's shape: statuses and modules must be
 * among the workspace's configured idea labels, and what PUT and PATCH each change.
 */

import type { Workspace } from '../platform/data/workspace-record.ts';
import { ValidationError, type ValidationIssue } from '../platform/errors.ts';
import { writtenFields } from './record.ts';
import type { IdeaPatch, IdeaWrite } from './schemas.ts';
import type { IdeaChanges } from './store/ideas.ts';

const LISTED_LABELS = 20;

function labelIssue(field: 'status' | 'module', configured: string[]): ValidationIssue {
  const plural = field === 'status' ? 'statuses' : 'modules';
  if (configured.length === 0) {
    return { path: `body.${field}`, message: `this workspace has no idea ${plural} configured; omit ${field} or send null` };
  }
  const listed = configured.slice(0, LISTED_LABELS).join(', ') + (configured.length > LISTED_LABELS ? ', …' : '');
  return { path: `body.${field}`, message: `must be one of the workspace's idea ${plural} (GET /ideas/labels): ${listed}` };
}

/**
 * Throws 400 `invalid_body` unless each status and module being written is configured. Only the
 * values being written are checked: an idea keeps a label that was later removed from the list.
 */
export function assertConfiguredLabels(labels: Workspace['ideaLabels'], values: { status?: string | null; module?: string | null }): void {
  const issues: ValidationIssue[] = [];
  if (typeof values.status === 'string' && !labels.statuses.includes(values.status)) issues.push(labelIssue('status', labels.statuses));
  if (typeof values.module === 'string' && !labels.modules.includes(values.module)) issues.push(labelIssue('module', labels.modules));
  if (issues.length > 0) throw new ValidationError('invalid_body', issues);
}

/**
 * PUT replaces every editable field: one left out is cleared. Submitter data and customer context
 * are replaced when given and kept when left out, because no client can read them back to resend.
 */
export function replacementOf(write: IdeaWrite): IdeaChanges {
  return {
    fields: writtenFields(write),
    submitter: write.submitter,
    customerContext: write.customerContext,
  };
}

/**
 * PATCH changes the fields it names; `null` clears an optional one. A status written says what it
 * means in its message, or clears the message of the status before it.
 */
export function patchOf(patch: IdeaPatch): IdeaChanges {
  const { title, titleAr, description, status, module } = patch;
  const message =
    status === undefined ? {} : { statusMessage: patch.statusMessage ?? null, statusMessageAr: patch.statusMessageAr ?? null };
  return { fields: { title, titleAr, description, status, module, ...message } };
}

export function isEmptyPatch(patch: IdeaPatch): boolean {
  return Object.values(patch).every((value) => value === undefined);
}
