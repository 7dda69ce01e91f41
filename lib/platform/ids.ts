/**
 * The one UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, the version and variant bits, then
 * random bits. Its text sorts by creation time, so a sort key built from it lists records in the
 * order they were created (ideas, journeys and their versions, surveys, designs, responses, exports).
 */
import { randomBytes } from 'node:crypto';

export function uuidv7(nowMs = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
