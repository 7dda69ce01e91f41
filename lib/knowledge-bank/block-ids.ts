/**
 * Block identity. A block sent without `id` gets a fresh one; a block sent back with its id keeps
 * it, which is what lets per-block translation status and link anchors follow a block across
 * `PUT …/draft`. Two blocks with one id in the same body would make that ambiguous, so it is refused.
 */
import { randomUUID } from 'node:crypto';
import type { Block, BlockInput } from './blocks.ts';

export type BlockIdAssignment = { ok: true; blocks: Block[] } | { ok: false; duplicateIds: string[] };

export function assignBlockIds(blocks: readonly BlockInput[], newId: () => string = randomUUID): BlockIdAssignment {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const block of blocks) {
    if (block.id === undefined) continue;
    if (seen.has(block.id)) duplicates.add(block.id);
    seen.add(block.id);
  }
  if (duplicates.size > 0) return { ok: false, duplicateIds: [...duplicates] };
  const assigned = blocks.map((block) => {
    if (block.id !== undefined) return block as Block;
    let id = newId();
    // A generated id can only clash with a client-chosen one that copied a UUID; draw again.
    while (seen.has(id)) id = newId();
    seen.add(id);
    return { ...block, id } as Block;
  });
  return { ok: true, blocks: assigned };
}
