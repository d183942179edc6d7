/** A JSON value, as the RPC layer sends it. Results and error data must be of this type. */
export type Json = null | boolean | number | string | Json[] | JsonArrayView | { [key: string]: Json | undefined };
export type JsonObject = { [key: string]: Json | undefined };
/** JSON as JSON.parse makes it (a file read, a request): no views. */
export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson | undefined };

/**
 * A long JSON array whose items are made when they are written, not before: a struct-logger
 * trace of 262,000 records made its answer as 262,000 objects (a million with their stacks'
 * strings) in one synchronous step, which then lived in the old generation until the answer
 * was written, and the garbage collector's pauses over them stopped every client for about a
 * second. Through this view the HTTP server (server/jsonBody.ts) formats the items a batch at
 * a time while it writes them, so each batch dies young. Everything else sees an ordinary
 * array: JSON.stringify calls `toJSON` (the same text), and the dispatcher's `call`, which
 * hands results to code in process, replaces each view by its array (`materialize`).
 */
export class JsonArrayView {
  /** How many views were ever made: `materialize` walks a result only if one was made since its request started. */
  static made = 0;

  constructor(
    readonly length: number,
    private readonly item: (index: number) => Json,
    /**
     * Item `index` as JSON text, exactly as JSON.stringify writes `item(index)`, made without
     * making the item (no objects per item: a trace's records are formatted from their columns).
     */
    private readonly itemText?: (index: number) => string,
  ) {
    JsonArrayView.made++;
  }

  /** Item `index`, made now (a new value each time). */
  at(index: number): Json {
    return this.item(index);
  }

  /** Whether the view makes its items' text itself (`textAt`). */
  get makesText(): boolean {
    return this.itemText !== undefined;
  }

  /** Item `index` as JSON.stringify writes it; undefined when the view makes no text of its own. */
  textAt(index: number): string | undefined {
    return this.itemText?.(index);
  }

  /** The items in order, each made as it is reached (the server writes them a batch at a time). */
  *[Symbol.iterator](): Generator<Json> {
    for (let i = 0; i < this.length; i++) yield this.item(i);
  }

  toJSON(): Json[] {
    return Array.from(this);
  }
}

/** `value` with every JsonArrayView in it replaced by its array (the same value when it holds none). */
export function materialize(value: Json): Json {
  if (value instanceof JsonArrayView) return value.toJSON().map(materialize);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]!;
      const plain = materialize(item);
      if (plain !== item) value[i] = plain;
    }
    return value;
  }
  for (const key of Object.keys(value)) {
    const member = value[key];
    // Assigned only when it changes: an answer may hold frozen values shared between answers.
    if (member instanceof JsonArrayView || (typeof member === 'object' && member !== null)) {
      const plain = materialize(member);
      if (plain !== member) value[key] = plain;
    }
  }
  return value;
}
