/**
 * An item's size as DynamoDB counts it against its 400 KB item limit (and for capacity units), from
 * the values a store hands the document client. The rules, from
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html:
 *   - every attribute is its name's UTF-8 bytes plus its value;
 *   - a string is its UTF-8 bytes, a binary its raw bytes;
 *   - a number is 1 byte per two significant digits plus 1 byte (leading and trailing zeroes trimmed);
 *   - null and Boolean are 1 byte;
 *   - a List or Map is 3 bytes plus its elements, each element 1 byte more (a Map's also its name);
 *   - a set is the sum of its elements.
 * A write whose item would pass the limit is refused by DynamoDB with a ValidationException ("Item
 * size has exceeded the maximum allowed size"), which reaches a client as a 502: a store that can
 * build such an item measures it first and answers 413 instead.
 */

/** https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-items: 400 KB, names and values together. */
export const MAX_ITEM_BYTES = 400 * 1024;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** "1 byte per two significant digits, plus 1 byte", leading and trailing zeroes trimmed. */
function numberBytes(value: number | bigint): number {
  const [mantissa = ''] = String(value).replace(/^-/, '').toLowerCase().split('e');
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(value);
  if (typeof value === 'boolean' || value === null) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce<number>((sum, element) => sum + valueBytes(element), 0);
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, element) => sum + 1 + valueBytes(element), 0);
  if (typeof value === 'object')
    return (
      3 +
      Object.entries(value as Record<string, unknown>)
        .filter(([, element]) => element !== undefined)
        .reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueBytes(element), 0)
    );
  throw new Error(`No DynamoDB size for a ${typeof value}`);
}

/** The bytes `item` (as a store passes it to the document client) takes in DynamoDB; undefined attributes are not written. */
export function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) if (value !== undefined) bytes += utf8(name) + valueBytes(value);
  return bytes;
}
