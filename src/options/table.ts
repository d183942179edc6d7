/**
 * The options table: every option once, as a row (row.ts) in --help's order. The option types,
 * the CLI's flags (cli.ts), Ganache's mapping (ganache/options.ts) and docs/reference/options.md
 * are derived from it; resolve.ts resolves a user's options with it.
 */
import { CHAIN_ROWS } from './chainRows.js';
import { FILE_ROWS } from './fileRows.js';
import { type CliType, type InputsOf, type OptionRow, type OutputsOf, defaultText } from './row.js';
import { SWITCH_ROWS } from './switchRows.js';

export const OPTION_TABLE = { ...CHAIN_ROWS, ...FILE_ROWS, ...SWITCH_ROWS } as const;

type Table = typeof OPTION_TABLE;

/** What a user may pass to createProvider / createServer (all optional). */
export interface ChainSimOptions extends InputsOf<Table> {}

/** What the rows resolve to by themselves (resolve.ts adds the fields resolved from several). */
export type TableOutputs = OutputsOf<Table>;

/** One CLI flag as yargs and the options reference show it; `key` is the option it fills. */
export interface OptionDeclaration {
  readonly key: keyof ChainSimOptions;
  readonly flag: string;
  readonly type: CliType;
  readonly describe: string;
  readonly defaultText: string;
  readonly alias?: string | readonly string[];
  readonly choices?: readonly string[];
  /** Turns the CLI's value into the option's (another tool's unit or form). */
  readonly coerce?: (value: unknown) => unknown;
  /** Repeatable flag: the option is an array. */
  readonly array?: boolean;
}

/** Every flag, in the table's order; a row's further spellings follow it. */
export const OPTION_DECLARATIONS: readonly OptionDeclaration[] = Object.entries(OPTION_TABLE as Readonly<Record<string, OptionRow>>).flatMap(([key, row]) => {
  if (row.flag === undefined || row.cli === undefined || row.help === undefined) return [];
  const own: OptionDeclaration = {
    key: key as keyof ChainSimOptions,
    flag: row.flag,
    type: row.cli,
    describe: row.help,
    defaultText: defaultText(row),
    ...(row.alias === undefined ? {} : { alias: row.alias }),
    ...(row.choices === undefined ? {} : { choices: row.choices }),
    ...(row.array ? { array: true } : {}),
  };
  const spellings = (row.spellings ?? []).map(
    (spelling): OptionDeclaration => ({
      key: key as keyof ChainSimOptions,
      flag: spelling.flag,
      type: spelling.cli,
      describe: spelling.help,
      defaultText: spelling.shown,
      ...(spelling.alias === undefined ? {} : { alias: spelling.alias }),
      ...(spelling.coerce === undefined ? {} : { coerce: spelling.coerce }),
    }),
  );
  return [own, ...spellings];
});
