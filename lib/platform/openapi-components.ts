/**
 * The document's named schemas (`components.schemas`). A record or shared shape is named once in
 * its area's schemas (`named('Survey', …)`, lib/platform/schemas.ts); zod's `toJSONSchema` then
 * extracts it into `$defs` wherever it appears, and this collector hoists those `$defs` into the
 * document's components and points every `$ref` there, so a generated client gets one `Survey`
 * type instead of an anonymous copy per operation (as Stripe's and GitHub's documents do).
 *
 * A shape is rendered for requests (`io: 'input'`) and for responses (`'output'`), and the two can
 * differ: a non-strict object accepts unknown members on the way in, a default makes a member
 * optional. A name whose input rendering differs, or refers to a name that does, is documented
 * twice: `X` as the API answers it and `XInput` as it accepts it.
 */
type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

const DEFS_REF = '#/$defs/';
const COMPONENTS_REF = '#/components/schemas/';
/** Marks an input-side reference until it is known whether it needs its own `XInput` component. */
const INPUT_MARK = '~input';

function rewriteRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rewrite));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === '$ref' && typeof member === 'string' ? rewrite(member) : rewriteRefs(member, rewrite),
    ]),
  );
}

function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') found.add(member.slice(COMPONENTS_REF.length));
      else refsIn(member, found);
    }
  }
  return found;
}

export class ComponentSchemas {
  private readonly rendered: Record<Io, Map<string, JsonSchema>> = { input: new Map(), output: new Map() };

  /**
   * Takes one `toJSONSchema` result: keeps its `$defs` and returns the schema with its references
   * pointing into the components (input references marked until `resolve` settles them).
   */
  adopt(json: JsonSchema, io: Io): JsonSchema {
    const { $defs, ...schema } = json;
    const suffix = io === 'input' ? INPUT_MARK : '';
    const toComponent = (ref: string) => (ref.startsWith(DEFS_REF) ? `${COMPONENTS_REF}${ref.slice(DEFS_REF.length)}${suffix}` : ref);
    for (const [name, def] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
      // zod names a schema that contains itself `__schema0`, `__schema1`… per conversion: such names would collide.
      if (name.startsWith('__schema'))
        throw new Error(`A recursive schema has no name: give it one with named() (lib/platform/schemas.ts)`);
      const body = rewriteRefs(def, toComponent) as JsonSchema;
      const known = this.rendered[io].get(name);
      if (known && JSON.stringify(known) !== JSON.stringify(body)) {
        throw new Error(`Two different schemas are named ${name}: each named() id must be used once`);
      }
      this.rendered[io].set(name, body);
    }
    return rewriteRefs(schema, toComponent) as JsonSchema;
  }

  /**
   * The components, and the document with every input reference settled: to `X` where the input
   * rendering is the output one, else to `XInput`.
   */
  resolve<T>(document: T): { document: T; schemas: Record<string, JsonSchema> } {
    const { input, output } = this.rendered;
    const unmarked = (schema: JsonSchema) => JSON.stringify(schema).replaceAll(INPUT_MARK, '');
    const separate = new Set(
      [...input]
        .filter(([name, schema]) => output.has(name) && unmarked(schema) !== JSON.stringify(output.get(name)))
        .map(([name]) => name),
    );
    // A shape that refers to a separate input shape is separate itself, up to a fixed point.
    for (let grew = true; grew; ) {
      grew = false;
      for (const [name, schema] of input) {
        if (separate.has(name)) continue;
        if ([...refsIn(schema)].some((ref) => separate.has(ref.replace(INPUT_MARK, '')))) {
          separate.add(name);
          grew = true;
        }
      }
    }
    const settle = (ref: string) => {
      if (!ref.endsWith(INPUT_MARK)) return ref;
      const name = ref.slice(COMPONENTS_REF.length, -INPUT_MARK.length);
      return `${COMPONENTS_REF}${separate.has(name) ? `${name}Input` : name}`;
    };
    const schemas: Record<string, JsonSchema> = {};
    for (const [name, schema] of output) schemas[name] = schema;
    for (const [name, schema] of input) {
      const settled = rewriteRefs(schema, settle) as JsonSchema;
      if (separate.has(name)) schemas[`${name}Input`] = settled;
      else if (!output.has(name)) schemas[name] = settled;
    }
    const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
    return { document: rewriteRefs(document, settle) as T, schemas: sorted };
  }
}
