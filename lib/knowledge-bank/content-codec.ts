/**
 * Article content (titles, summaries, blocks and their translation hashes) is stored as
 * brotli-compressed JSON in one Binary attribute. The cap is on what the client sent: 1,048,576
 * bytes of UTF-8 JSON. Prose compresses 5–10×, so a capped draft fits a DynamoDB item (400 KB);
 * content that does not compress that well (random strings) is refused by the second cap rather
 * than failing inside DynamoDB.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export const MAX_CONTENT_BYTES = 1_048_576;
/** Room for the item's other attributes under DynamoDB's 400 KB item limit. */
const MAX_COMPRESSED_BYTES = 380_000;

export type Encoded = { ok: true; bytes: Uint8Array; jsonBytes: number } | { ok: false; jsonBytes: number; compressedBytes?: number };

export function encodeContent(content: unknown): Encoded {
  const json = Buffer.from(JSON.stringify(content), 'utf8');
  if (json.byteLength > MAX_CONTENT_BYTES) return { ok: false, jsonBytes: json.byteLength };
  const bytes = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      // Quality 5 compresses prose nearly as well as 11 at a fraction of the CPU.
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.byteLength,
    },
  });
  if (bytes.byteLength > MAX_COMPRESSED_BYTES) return { ok: false, jsonBytes: json.byteLength, compressedBytes: bytes.byteLength };
  return { ok: true, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), jsonBytes: json.byteLength };
}

export function decodeContent<T>(bytes: Uint8Array): T {
  return JSON.parse(brotliDecompressSync(bytes).toString('utf8')) as T;
}
