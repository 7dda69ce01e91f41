/**
 * The OpenAPI document with every `$ref` to a named schema (`#/components/schemas/X`) replaced by
 * that schema, so a test can walk an operation's body member by member (`.properties.pagination
 * .properties.nextCursor`) as a reader of the reference page does, whether or not a shape is named.
 */
type Document = { components: { schemas: Record<string, unknown> } };

const COMPONENTS_REF = '#/components/schemas/';

export function inlineRefs<T extends Document>(document: T): T {
  const inline = (value: unknown, within: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, within));
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENTS_REF)) {
      const name = ref.slice(COMPONENTS_REF.length);
      if (within.includes(name)) throw new Error(`${name} contains itself: it cannot be inlined`);
      const target = document.components.schemas[name];
      if (target === undefined) throw new Error(`${ref} names no schema of the document`);
      const { $ref: _, ...siblings } = value as Record<string, unknown>;
      return { ...(inline(target, [...within, name]) as object), ...(inline(siblings, within) as object) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, inline(member, within)]));
  };
  return { ...document, paths: inline((document as { paths?: unknown }).paths, []) } as T;
}
