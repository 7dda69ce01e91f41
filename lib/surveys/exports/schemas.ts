/** Request and response shapes of the survey export routes. */
import * as z from 'zod/mini';
import { uuid } from '../../platform/schemas.ts';

const UTC_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const utcDate = (description: string) =>
  z.string().check(z.regex(UTC_DATE, 'must be a UTC date, YYYY-MM-DD')).register(z.globalRegistry, { description, format: 'date' });

export const createExportBody = z
  .strictObject({
    format: z.enum(['csv', 'jsonl']).register(z.globalRegistry, {
      description: 'CSV (UTF-8 with a byte-order mark, formula cells neutralised) or JSON Lines (one object per response)',
    }),
    // Own instances: a description registered on the shared uuid or timestamp would read on every id and time.
    versionId: z.optional(z.uuid().register(z.globalRegistry, { description: 'Only responses to this version (default: every version)' })),
    status: z.optional(
      z.enum(['partial', 'finished']).register(z.globalRegistry, { description: 'Only partial or only finished responses' }),
    ),
    from: z.optional(utcDate('Responses started on or after this UTC day')),
    to: z.optional(utcDate('Responses started on or before this UTC day')),
    labels: z.enum(['ids', 'en', 'ar']).register(z.globalRegistry, {
      description: 'Options, matrix rows and columns as their ids, or as their English or Arabic labels',
    }),
  })
  .check(z.refine((body) => !body.from || !body.to || body.from <= body.to, { message: '`from` must not be after `to`', path: ['from'] }));

export const exportParams = z.strictObject({ id: uuid, exportId: uuid });

export const surveyExport = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  rows: z.int().register(z.globalRegistry, { description: 'Responses written (0 until done)' }),
  bytes: z.int().register(z.globalRegistry, { description: 'Size of the file (0 until done)' }),
  downloadUrl: z.nullable(z.string()).register(z.globalRegistry, {
    description: 'Once done: a presigned S3 GET of the file, valid for 15 minutes (read the export again for a fresh one)',
  }),
  expiresAt: z.iso
    .datetime()
    .register(z.globalRegistry, { description: 'When the file and this export are deleted (24 h after the request)' }),
});
