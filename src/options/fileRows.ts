/** Options table, second part: the files a node starts from and saves to, its identity, logging. */
import { FORK_ROWS } from '../fork/options.js';
import { artifactsOf, asGiven, boolOrAuto, filePath, fixturesOf, timerSeconds } from './parsers.js';
import type { Rows } from './row.js';

export const FILE_ROWS = {
  /** State files (the chain_dumpState format, a superset of a geth genesis alloc) written into the genesis state, in order. */
  fixtures: {
    flag: 'fixture',
    cli: 'string',
    array: true,
    help: 'state file loaded into the genesis block (repeatable; later files win)',
    default: [] as string[],
    parse: fixturesOf,
  },
  /** A chain file as `geth export` writes it (RLP blocks): executed, validated and appended at start. */
  import: {
    flag: 'import',
    cli: 'string',
    help: 'chain file of RLP blocks (geth export format): each block executed, validated and appended at start',
    parse: filePath('import'),
    as: 'importFile',
  },
  /** A go-ethereum genesis.json: chain id, fork schedule, genesis header and alloc. */
  genesis: {
    flag: 'genesis',
    alias: 'init', // Anvil's spelling
    cli: 'string',
    help: 'go-ethereum genesis.json: chain id, fork schedule (by block and time), genesis header and alloc',
    parse: filePath('genesis'),
  },
  /**
   * The project's compiler output (folders or files: a Hardhat project or its artifacts/build-info,
   * a Foundry project or its out/, solc standard-JSON files), read when first needed to name
   * contracts and decode their errors. Not given: the working directory's Hardhat or Foundry
   * project, if it is one; false (`--artifacts none`): none.
   */
  artifacts: {
    flag: 'artifacts',
    cli: 'string',
    array: true,
    help: "the project's compiler output, to name contracts in traces and decode their errors: a Hardhat project or its artifacts/build-info, a Foundry project or its out/, solc standard-JSON files (repeatable; none: no artifacts)",
    shown: "the working directory's Hardhat or Foundry project, if it is one",
    parse: artifactsOf,
  },
  /** State file: loaded at start if it exists, saved atomically on shutdown. */
  stateFile: {
    flag: 'state',
    alias: ['database.dbPath', 'db'],
    cli: 'string',
    help: 'state file: loaded at start if it exists, saved atomically on exit (SIGINT, SIGTERM, SIGHUP)',
    parse: filePath('state'),
  },
  /** With stateFile: also save every this many seconds (fractions allowed; 0: only on shutdown). */
  stateInterval: {
    flag: 'state-interval',
    cli: 'number',
    help: 'with --state: also save every N seconds',
    default: 0,
    shown: '0 (only on exit)',
    parse: timerSeconds('state-interval'),
  },
  /**
   * Hardhat's node's forms (a `HardhatNetwork/` web3_clientVersion; under automine, eth_sendTransaction
   * and eth_sendRawTransaction of a transaction that fails answer Hardhat's error, the transaction
   * still mined): 'auto' (default) gives them to Hardhat's clients only (its HTTP provider's
   * User-Agent), true to every client, false to none. chain_ names answer the hash whatever it is.
   */
  hardhatNode: {
    flag: 'hardhat-node',
    cli: 'boolean',
    help: "give every client Hardhat's node's forms: HardhatNetwork/ client version, and eth_sendTransaction / eth_sendRawTransaction of a transaction that fails under automine answer Hardhat's error (the transaction is still mined); --no-hardhat-node: to no client, not even Hardhat's",
    default: 'auto' as boolean | 'auto',
    shown: "auto (Hardhat's clients only, by their User-Agent)",
    parse: boolOrAuto('hardhat-node'),
  },
  ...FORK_ROWS,
  quiet: { flag: 'quiet', alias: ['q', 'logging.quiet', 'silent'], cli: 'boolean', help: 'print nothing but errors', default: false, parse: asGiven<boolean> },
  verbose: {
    flag: 'verbose',
    alias: ['v', 'logging.verbose'],
    cli: 'boolean',
    help: 'log each request: method and duration',
    default: false,
    parse: asGiven<boolean>,
  },
} as const satisfies Rows;
