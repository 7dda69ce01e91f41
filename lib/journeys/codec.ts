/**
 * The caps of a journey version's content, stored as compressed JSON (lib/platform/data/compressed-json.ts):
 * at most 1 MB of JSON, and then whatever fits one DynamoDB item beside everything else the version
 * holds (store/versions.ts: largestVersionItemBytes, checked by content-size.ts before any write).
 */
import { type CompressedJson, compressJson, decompressJson } from '../platform/data/compressed-json.ts';
import { MAX_ITEM_BYTES } from '../platform/data/item-size.ts';

export const CONTENT_LIMITS = {
  /** UTF-8 bytes of the content's JSON. */
  rawBytes: 1_048_576,
  /** The whole version item, content and everything beside it: DynamoDB's item limit. */
  itemBytes: MAX_ITEM_BYTES,
} as const;

export function encodeContent(content: unknown): CompressedJson {
  // No cap of its own on the compressed bytes: the item's real limit decides, with the pairs and the rest counted.
  return compressJson(JSON.stringify(content), CONTENT_LIMITS.rawBytes, CONTENT_LIMITS.itemBytes);
}

export function decodeJson(compressed: Uint8Array, maxRawBytes: number = CONTENT_LIMITS.rawBytes): unknown {
  return decompressJson(compressed, maxRawBytes);
}
