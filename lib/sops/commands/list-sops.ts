/** GET /sops: every SOP the key may see (read-only keys: published only), oldest first. */
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Sop } from '../record.ts';
import { readSops } from '../store/sops.ts';
import { seesUnpublishedSops } from '../visibility.ts';

export function listSops(workspace: string, viewer: AuthContext): Promise<Sop[]> {
  return readSops(workspace, { publishedOnly: !seesUnpublishedSops(viewer) });
}
