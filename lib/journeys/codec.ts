/** The caps of a journey version's content, stored as compressed JSON (lib/platform/data/compressed-json.ts). */
import { type CompressedJson, compressJson, decompressJson } from '../platform/data/compressed-json.ts';

export const CONTENT_LIMITS = {
  /** UTF-8 bytes of the content's JSON. */
  rawBytes: 1_048_576,
  /** Leaves ~50 KB of the 400 KB item for the version's other attributes (diagnostics, label…). */
  compressedBytes: 350 * 1024,
} as const;

export function encodeContent(content: unknown): CompressedJson {
  return compressJson(JSON.stringify(content), CONTENT_LIMITS.rawBytes, CONTENT_LIMITS.compressedBytes);
}

export function decodeJson(compressed: Uint8Array, maxRawBytes: number = CONTENT_LIMITS.rawBytes): unknown {
  return decompressJson(compressed, maxRawBytes);
}
