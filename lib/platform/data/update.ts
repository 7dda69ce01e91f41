/**
 * The one UpdateExpression builder. Attribute names reach an expression only through it, each
 * behind a placeholder, and a client's patch only through `patch`, which walks the store's
 * allow-list and never the patch's own keys: no name a client sent can appear in an expression
 * unless the store listed it. Placeholders are numbered (`#u0`, `:u0`), so a store's own condition
 * names and values (`#version`, `:ifMatch0`) never collide with them.
 */

/** An attribute, or a path into a map attribute (`['designs', id, 'name']`). */
export type AttributePath = string | readonly string[];

export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export class UpdateBuilder {
  readonly #names = new Map<string, string>();
  readonly #values: Record<string, unknown> = {};
  readonly #set: string[] = [];
  readonly #remove: string[] = [];
  readonly #add: string[] = [];
  readonly #delete: string[] = [];

  #name(path: AttributePath): string {
    const segments = typeof path === 'string' ? [path] : path;
    return segments
      .map((segment) => {
        let placeholder = this.#names.get(segment);
        if (!placeholder) {
          placeholder = `#u${this.#names.size}`;
          this.#names.set(segment, placeholder);
        }
        return placeholder;
      })
      .join('.');
  }

  #value(value: unknown): string {
    const placeholder = `:u${Object.keys(this.#values).length}`;
    this.#values[placeholder] = value;
    return placeholder;
  }

  /** `SET path = value`. */
  set(path: AttributePath, value: unknown): this {
    this.#set.push(`${this.#name(path)} = ${this.#value(value)}`);
    return this;
  }

  /** `SET path = if_not_exists(path, value)`: written once, never overwritten. */
  setIfAbsent(path: AttributePath, value: unknown): this {
    const name = this.#name(path);
    this.#set.push(`${name} = if_not_exists(${name}, ${this.#value(value)})`);
    return this;
  }

  /** `SET path = path + by` (the attribute must exist: a version, say). */
  increment(path: AttributePath, by = 1): this {
    const name = this.#name(path);
    this.#set.push(`${name} = ${name} + ${this.#value(by)}`);
    return this;
  }

  /** `ADD path by`: a counter that starts at zero when absent, or members added to a set (made when absent). */
  add(path: AttributePath, by: number | ReadonlySet<string>): this {
    this.#add.push(`${this.#name(path)} ${this.#value(by)}`);
    return this;
  }

  /** `DELETE path members`: members taken out of a set (DynamoDB removes a set left empty). */
  deleteFromSet(path: AttributePath, members: ReadonlySet<string>): this {
    this.#delete.push(`${this.#name(path)} ${this.#value(members)}`);
    return this;
  }

  /** `REMOVE path`. */
  remove(path: AttributePath): this {
    this.#remove.push(this.#name(path));
    return this;
  }

  /**
   * Apply a patch through an allow-list: for each allowed field the patch names, `null` removes the
   * attribute and any other value sets it (through `encode`, when given: JSON for a nested
   * object, say); `undefined` leaves it. Keys of `patch` that are not allowed are never read.
   * `under` puts the fields inside a map attribute.
   */
  patch<F extends string>(
    patch: Partial<Record<F, unknown>>,
    allowed: readonly F[],
    options: { under?: readonly string[]; encode?: (field: F, value: unknown) => unknown } = {},
  ): this {
    for (const field of allowed) {
      const value = patch[field];
      if (value === undefined) continue;
      const path = [...(options.under ?? []), field];
      if (value === null) this.remove(path);
      else this.set(path, options.encode ? options.encode(field, value) : value);
    }
    return this;
  }

  /** The placeholder path of an attribute, for a condition on it (`attribute_exists(…)`). */
  placeholder(path: AttributePath): string {
    return this.#name(path);
  }

  /** Whether anything was asked of the update. */
  get isEmpty(): boolean {
    return this.#set.length + this.#remove.length + this.#add.length + this.#delete.length === 0;
  }

  /**
   * The expression and its placeholders, ready to spread into an UpdateItem or a transaction's
   * Update; `condition` merges a store's own condition names and values beside them.
   */
  build(condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> }): UpdateParts & {
    ConditionExpression?: string;
  } {
    if (this.isEmpty) throw new Error('An update with nothing to write');
    const clauses = [
      this.#set.length > 0 ? `SET ${this.#set.join(', ')}` : '',
      this.#remove.length > 0 ? `REMOVE ${this.#remove.join(', ')}` : '',
      this.#add.length > 0 ? `ADD ${this.#add.join(', ')}` : '',
      this.#delete.length > 0 ? `DELETE ${this.#delete.join(', ')}` : '',
    ].filter(Boolean);
    const names = Object.fromEntries([...this.#names].map(([name, placeholder]) => [placeholder, name]));
    const values = { ...this.#values, ...condition?.values };
    return {
      UpdateExpression: clauses.join(' '),
      ExpressionAttributeNames: { ...names, ...condition?.names },
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      ...(condition ? { ConditionExpression: condition.expression } : {}),
    };
  }
}

/** A new update: `update().set('updatedAt', now).increment('version').patch(body, EDITABLE).build(condition)`. */
export function update(): UpdateBuilder {
  return new UpdateBuilder();
}
