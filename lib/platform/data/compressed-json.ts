/**
 * Large documents (journey content, knowledge-bank drafts, …) are stored as brotli-compressed
 * JSON in one Binary attribute, so a large document still fits one DynamoDB item (400 KB) and a
 * save costs write units for its compressed size, not its raw size. Each area sets its own caps:
 * one on the UTF-8 JSON the client sent (a 413 past it), one on the compressed bytes (room for the
 * item's other attributes). Brotli at a middle quality: JSON compresses ~5-15x, and quality 5
 * keeps a 1 MB save in the tens of milliseconds (quality 11 would take about a second of Lambda time).
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export type CompressedJson =
  | { ok: true; compressed: Uint8Array; rawBytes: number }
  | { ok: false; limit: 'rawBytes' | 'compressedBytes'; bytes: number };

/** Compress `json` unless it passes either cap; which cap it passed is said, for the 413's message. */
export function compressJson(json: string, maxRawBytes: number, maxCompressedBytes: number): CompressedJson {
  const raw = Buffer.from(json, 'utf8');
  if (raw.byteLength > maxRawBytes) return { ok: false, limit: 'rawBytes', bytes: raw.byteLength };
  const compressed = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
    },
  });
  if (compressed.byteLength > maxCompressedBytes) return { ok: false, limit: 'compressedBytes', bytes: compressed.byteLength };
  return { ok: true, compressed: new Uint8Array(compressed), rawBytes: raw.byteLength };
}

/** Inflates what compressJson stored; the output cap guards against a corrupt item inflating without bound. */
export function decompressJson(compressed: Uint8Array, maxRawBytes: number): unknown {
  const raw = brotliDecompressSync(compressed, { maxOutputLength: maxRawBytes });
  return JSON.parse(raw.toString('utf8'));
}
