/**
 * One key carries 1,000 requests a second because each count is one write unit of its item, which
 * holds while the item stays within 1 KB (docs/costs.md, "What one key carries"): a key whose name
 * would take it past that is refused when it is made, before anything is written.
 */
import { describe, expect, it } from 'vitest';
import { createDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { createTableClient } from '../../lib/admin/table-client.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';

// Nothing listens here: a key that passes the check fails on the call, one that does not never calls.
const store = createTableClient('no-table', { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', maxAttempts: 1 });
const workspace = 'a'.repeat(63);
const make = (name: string) => createDeveloperKey(store, { workspace, name, permissions: [...PERMISSIONS], rateLimitPerMinute: 60_000 });

describe('a key item over one write unit', () => {
  it('is refused, before any write, for a name of 100 three-byte characters with every permission', async () => {
    await expect(make('漢'.repeat(100))).rejects.toThrow(/key name is too long.*1 KB/);
  });

  it('is not what a 100-character ASCII name with every permission and the longest workspace makes', async () => {
    await expect(make('k'.repeat(100))).rejects.not.toThrow(/too long/);
  });
});
