/**
 * Article content (titles, summaries, blocks and their translation hashes) is stored as
 * brotli-compressed JSON in one Binary attribute. The cap is on what the client sent: 1,048,576
 * bytes of UTF-8 JSON. Prose compresses 5–10×, so a capped draft fits a DynamoDB item (400 KB);
 * content that does not compress that well (random strings) is refused by the second cap rather
 * than failing inside DynamoDB.
 */
import { compressJson, decompressJson } from '../platform/data/compressed-json.ts';

export const MAX_CONTENT_BYTES = 1_048_576;
/** Room for the item's other attributes under DynamoDB's 400 KB item limit. */
const MAX_COMPRESSED_BYTES = 380_000;

export type Encoded = { ok: true; bytes: Uint8Array; jsonBytes: number } | { ok: false; jsonBytes: number; compressedBytes?: number };

export function encodeContent(content: unknown): Encoded {
  const json = JSON.stringify(content);
  const encoded = compressJson(json, MAX_CONTENT_BYTES, MAX_COMPRESSED_BYTES);
  if (encoded.ok) return { ok: true, bytes: encoded.compressed, jsonBytes: encoded.rawBytes };
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  return encoded.limit === 'rawBytes' ? { ok: false, jsonBytes } : { ok: false, jsonBytes, compressedBytes: encoded.bytes };
}

export function decodeContent<T>(bytes: Uint8Array): T {
  return decompressJson(bytes, MAX_CONTENT_BYTES) as T;
}
