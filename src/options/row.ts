/**
 * The shape of one row of the options table (table.ts) and the types derived from the table:
 * what a user may pass (ChainSimOptions) and what each row resolves to.
 */

/** How yargs reads the flag's value. */
export type CliType = 'string' | 'number' | 'boolean';

/**
 * One option. `In` is what a user passes (createProvider({ key: value }) or the CLI's value after
 * `coerce`); `Out` is what resolveOptions makes of it.
 */
export interface OptionRow<In = unknown, Out = unknown> {
  /** The CLI flag (--flag); none: the option is for code only (createProvider, createServer). */
  readonly flag?: string;
  /** Other spellings: short flags, and other tools' names (Ganache's --wallet.totalAccounts, Anvil's, Hardhat's). */
  readonly alias?: string | readonly string[];
  readonly cli?: CliType;
  /** Repeatable flag: the option is an array. */
  readonly array?: boolean;
  readonly choices?: readonly string[];
  /** --help's line and the options reference's. */
  readonly help?: string;
  /** The default, in the option's own units (what --help shows); absent: not set unless given. */
  readonly default?: In;
  /** How --help shows the default when it is computed, or not the value itself. */
  readonly shown?: string;
  /** Turns the CLI's value into the option's (another tool's unit or form). */
  readonly coerce?: (value: unknown) => In;
  /** Checks the value (the default when not given) and turns it into the resolved one. */
  readonly parse: (value: In) => Out;
  /**
   * The ResolvedOptions field it fills, when not named as the option; null: none of its own (the
   * option feeds another's result, in resolve.ts, or the fork's, in fork/options.ts).
   */
  readonly as?: string | null;
  /** Further flags that set the same option, each with its own help (Ganache's --chain.time). */
  readonly spellings?: readonly Spelling<In>[];
}

export interface Spelling<In> {
  readonly flag: string;
  readonly alias?: string | readonly string[];
  readonly cli: CliType;
  readonly help: string;
  readonly shown: string;
  readonly coerce?: (value: unknown) => In;
}

// biome-ignore lint/suspicious/noExplicitAny: a row's value type is its own; parse is checked where the row is written.
type AnyRow = OptionRow<any, unknown>;

/** A part of the options table: rows by option name, in --help's order. */
export type Rows = Record<string, AnyRow>;

/** What a user passes for a row: its parser's argument, undefined left out. */
export type InputOf<R> = R extends { readonly parse: (value: infer In) => unknown } ? Exclude<In, undefined> : never;

/** Every option a user may pass, all optional. */
export type InputsOf<T extends Record<string, AnyRow>> = { -readonly [K in keyof T]?: InputOf<T[K]> };

/** The resolved fields the rows fill by themselves, under their `as` names. */
export type OutputsOf<T extends Record<string, AnyRow>> = {
  readonly [K in keyof T as T[K] extends { readonly as: null } ? never : T[K] extends { readonly as: infer N extends string } ? N : K]: ReturnType<
    T[K]['parse']
  >;
};

/** The text --help shows as a row's default: `shown`, else the value ('none' for no value or an empty list). */
export function defaultText(row: AnyRow): string {
  if (row.shown !== undefined) return row.shown;
  const value = row.default as unknown;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'none';
  return String(value);
}
