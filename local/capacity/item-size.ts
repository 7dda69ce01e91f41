/**
 * An item's size as DynamoDB computes it for capacity units, from its attributes on the wire
 * (AttributeValue JSON): https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 *   - an attribute is its name's UTF-8 bytes plus its value;
 *   - a string is its UTF-8 bytes; a binary its raw bytes (base64 on the wire, decoded here);
 *   - a number is 1 byte per two significant digits plus 1 (leading and trailing zeroes trimmed);
 *   - null and Boolean are 1 byte;
 *   - a List or Map is 3 bytes plus its elements, each element 1 byte more (a Map element also its name);
 *   - a set is the sum of its elements.
 * Pure: the capacity model (bench/capacity*) and the throttling sandbox (local/partition-throttle.ts) price with it.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** An item as DynamoDB's wire protocol carries it. */
export type WireItem = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Raw bytes of a binary value: a Uint8Array from the SDK, or base64 text from the wire's JSON. */
function binaryBytes(value: Uint8Array | string): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : value.length;
}

/** "1 byte per two significant digits, plus 1 byte", leading and trailing zeroes trimmed. */
export function numberSize(text: string): number {
  const [mantissa = ''] = text.trim().replace(/^[+-]/, '').toLowerCase().split('e');
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return binaryBytes(value.B);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + binaryBytes(b), 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M !== undefined)
    return 3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 0);
  throw new Error(`Unknown attribute value ${JSON.stringify(value)}`);
}

export function itemSize(item: WireItem): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** Only the named attributes of `item` (those it has). */
export function pick(item: WireItem, names: Iterable<string>): WireItem {
  const picked: WireItem = {};
  for (const name of names) if (item[name] !== undefined) picked[name] = item[name] as AttributeValue;
  return picked;
}
