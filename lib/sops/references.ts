/**
 * Directory references of an SOP: `departmentId` must be an active team of the SOP directory, and
 * each escalation level is either an active person or team of the directory or a legacy
 * `user:<id>` / `role:<name>` reference (kept as given, not looked up). All directory ids of one
 * body are checked in a single BatchGetItem.
 */

import { ValidationError, type ValidationIssue } from '../platform/errors.ts';
import type { SopContent } from './record.ts';
import { isDirectoryIdShape } from './schemas.ts';
import { type DirectoryKind, findDirectoryEntries } from './store/directory.ts';

const LEVELS = ['escalationLevel1', 'escalationLevel2', 'escalationLevel3'] as const;

/** Throws 400 invalid_body naming every unknown or inactive directory reference; no call when there are none. */
export async function assertDirectoryReferences(workspace: string, content: SopContent): Promise<void> {
  const lookups: { id: string; kind: DirectoryKind }[] = [];
  if (content.departmentId) lookups.push({ id: content.departmentId, kind: 'team' });
  for (const level of LEVELS) {
    const reference = content[level];
    if (reference && isDirectoryIdShape(reference)) {
      lookups.push({ id: reference, kind: 'person' }, { id: reference, kind: 'team' });
    }
  }
  if (lookups.length === 0) return;

  const entries = await findDirectoryEntries(workspace, lookups);
  const entry = (id: string, kind?: DirectoryKind) => entries.find((e) => e.id === id && (kind === undefined || e.kind === kind));
  const issues: ValidationIssue[] = [];

  if (content.departmentId) {
    const team = entry(content.departmentId, 'team');
    if (!team) {
      issues.push({
        path: 'body.departmentId',
        message: `"${content.departmentId}" is not a team of the SOP directory (GET /sops/directory)`,
      });
    } else if (!team.active) {
      issues.push({ path: 'body.departmentId', message: `team "${content.departmentId}" is inactive in the SOP directory` });
    }
  }
  for (const level of LEVELS) {
    const reference = content[level];
    if (!reference || !isDirectoryIdShape(reference)) continue;
    const found = entry(reference);
    if (!found) {
      issues.push({ path: `body.${level}`, message: `"${reference}" is not a person or team of the SOP directory (GET /sops/directory)` });
    } else if (!found.active) {
      issues.push({ path: `body.${level}`, message: `${found.kind} "${reference}" is inactive in the SOP directory` });
    }
  }
  if (issues.length > 0) throw new ValidationError('invalid_body', issues);
}
