/**
 * The `chain-sim` command: yargs flags generated from the option declarations. The same parser
 * serves the Ganache drop-in's `ganache` command (bin/ganache.js, linked only by the
 * chain-sim-ganache package): Ganache's `-h` for the host, its defaults and its forms.
 */
import { toChecksumAddress } from '@ethereumjs/util';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { formatEther } from './formatUnits.js';
import { type ChainSimOptions, OPTION_DECLARATIONS, OptionError } from '../options.js';
import { useCompactHeap } from './compactHeap.js';
import { ChainSimServer } from '../server/index.js';
import { startNode } from '../startup/node.js';
import { VERSION } from '../version.js';
import { findNpmLauncher, watchLauncher } from './launcher.js';
import { clipLongRuns } from '../engine/index.js';
import { normalizeForkFlags } from '../fork/options.js';
import { withGanacheDefaults } from '../ganache/options.js';
import { nearestName } from '../options/suggest.js';

/** The command being run: chain-sim's own, or `ganache` as the Ganache drop-in installs it. */
export type CommandName = 'chain-sim' | 'ganache';

/**
 * An error for the terminal: one line, whatever yargs or the engine said, and no large input
 * echoed whole (a 100 KB flag value or file name shows its start and its size, as in JSON-RPC errors).
 */
export function oneLine(message: string): string {
  return clipLongRuns(message.replace(/\s*\n\s*/g, ' '));
}

/** The CLI's own switches: not node options (the provider and createServer have no launcher). */
const CLI_SWITCHES = ['exit-with-launcher'];

/**
 * `--no-X` for a boolean flag X, as yargs' boolean negation would read it: that feature is off
 * (other tools' `--no-mining` and `--no-console-log` are flags of their own), so it is done here,
 * for the boolean flags that have no `no-` twin.
 */
export function expandNegations(argv: readonly string[]): string[] {
  // A flag's long aliases negate as the flag does (Anvil's --no-storage-caching is --no-fork-cache).
  const spellings = (decl: (typeof OPTION_DECLARATIONS)[number]) => [decl.flag, ...[decl.alias ?? []].flat().filter((a) => a.length > 1)];
  const flags = new Set(OPTION_DECLARATIONS.flatMap(spellings));
  const booleans = new Set([...OPTION_DECLARATIONS.filter((decl) => decl.type === 'boolean').flatMap(spellings), ...CLI_SWITCHES]);
  return argv.map((arg) => {
    const name = /^--no-([^=]+)$/.exec(arg)?.[1];
    return name !== undefined && booleans.has(name) && !flags.has(`no-${name}`) ? `--${name}=false` : arg;
  });
}

const USAGE: Record<CommandName, string> = {
  'chain-sim':
    "$0 [options]\n\nStart an in-memory Ethereum simulator with a JSON-RPC endpoint over HTTP and WebSocket (same port).\n\nOther commands:\n  chain-sim compile-serpent FILE   print Serpent creation code and ABI signatures\n  chain-sim export FILE            write a running node's chain as RLP blocks (see chain-sim export --help)",
  ganache:
    "$0 [options]\n\nchain-sim installed as Ganache: Ganache's flags, defaults (a random mnemonic unless -d, 1000 ether) and answers. -h is the host, as in Ganache; --help or -? for this text.",
};

function buildParser(argv: string[], command: CommandName) {
  let parser = yargs(argv)
    .scriptName(command)
    .usage(USAGE[command])
    .version(command === 'ganache' ? `chain-sim v${VERSION} (as ganache)` : VERSION)
    .help('help')
    // Ganache's -h is the host; chain-sim's is help (its host is -H).
    .alias('help', command === 'ganache' ? '?' : 'h')
    .strict()
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    // Other tools' flags have dots (--wallet.totalAccounts) and 'no-' names (--no-mining): both are flags of their own here.
    .parserConfiguration({ 'dot-notation': false, 'boolean-negation': false });
  for (const decl of OPTION_DECLARATIONS) {
    parser = parser.option(decl.flag, {
      type: decl.type,
      describe: `${decl.describe} [default: ${decl.defaultText}]`,
      alias: command === 'ganache' && decl.key === 'host' ? [decl.alias ?? [], 'h'].flat() : decl.alias,
      choices: decl.choices as string[] | undefined,
      requiresArg: decl.type !== 'boolean',
      array: decl.array,
    });
  }
  return parser.option(CLI_SWITCHES[0]!, {
    type: 'boolean',
    default: true,
    describe:
      'when started by npm (npx chain-sim, npm run), shut down as on SIGTERM (saving --state) once that npm process ends or (Linux) is sent SIGINT; --no-exit-with-launcher keeps running',
  });
}

function toOptions(args: Record<string, unknown>): ChainSimOptions {
  const options: Record<string, unknown> = {};
  for (const decl of OPTION_DECLARATIONS) {
    const value = args[decl.flag];
    if (value === undefined) continue;
    if (decl.type === 'number' && (typeof value !== 'number' || Number.isNaN(value))) {
      throw new OptionError(decl.flag, `expected a number`);
    }
    options[decl.key] = decl.coerce ? decl.coerce(value) : value;
  }
  return options as ChainSimOptions;
}

function banner(node: Awaited<ReturnType<typeof startNode>>, listening: string): string {
  const { options, chain } = node;
  const lines = [`chain-sim v${VERSION}`, '', 'Available accounts', '=================='];
  const accounts = chain.accounts.list();
  accounts.forEach((a, i) => lines.push(`(${i}) ${toChecksumAddress(a.toString())} (${formatEther(options.balanceWei)} ETH)`));
  lines.push('', 'Private keys', '==================');
  accounts.forEach((a, i) => lines.push(`(${i}) 0x${Buffer.from(chain.accounts.privateKeyOf(a)!).toString('hex')}`));
  lines.push(
    '',
    'HD wallet',
    '==================',
    `Mnemonic:        ${options.mnemonic}`,
    `Derivation path: ${options.derivationPath}/{account_index}`,
    '',
    `Chain id:        ${options.chainId}`,
    `Hardfork:        ${options.hardfork}`,
    `Gas limit:       ${options.gasLimit}`,
    `Base fee:        ${chain.head.block.header.baseFeePerGas ?? 'n/a (pre-London)'}`,
    `Coinbase:        ${options.coinbase.toString()}`,
    ...(options.mining === 'pow' ? [`Mining:          pow, difficulty ${options.difficulty} (chain_getWork / chain_submitWork)`] : []),
    ...forkBanner(node),
    '',
    listening,
  );
  return lines.join('\n');
}

/** What was forked: upstream (credentials masked), its chain id, the pinned block, the rules, the cache. */
function forkBanner(node: Awaited<ReturnType<typeof startNode>>): string[] {
  const session = node.fork.session;
  if (!session) return [];
  return [
    '',
    'Fork',
    '==================',
    `Upstream:        ${session.upstream.masked}${session.offline ? ' (not connected: restored by --state without --fork; the disk cache only)' : ''}`,
    `Chain id:        ${session.chainId}${session.chainId === node.chain.chainId ? '' : ` (this node: ${node.chain.chainId})`}`,
    `Block:           ${session.number} (rerun with --fork-block-number ${session.number} to reproduce)`,
    `Block hash:      ${session.hashHex}`,
    `Hardfork:        ${session.hardfork} (${session.hardforkSource})`,
    `Cache:           ${session.cache ? session.cache.path : 'off (memory only)'}`,
  ];
}

/** `chain-sim compile-serpent FILE`: print the creation code and the ABI signatures. */
async function compileSerpentCommand(file: string): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const { compileSerpent, SerpentError } = await import('../serpent/index.js');
  try {
    const output = compileSerpent(await readFile(file, 'utf8'));
    console.log(`0x${Buffer.from(output.bytecode).toString('hex')}`);
    for (const fn of output.functions) console.log(`${fn.selector} ${fn.signature}${fn.output ? ` -> ${fn.output}` : ''}`);
    for (const event of output.events) console.log(`${event.topic} event ${event.signature}`);
    return 0;
  } catch (error) {
    if (error instanceof SerpentError) console.error(oneLine(`${file}: ${error.message}`));
    else console.error(`chain-sim: ${oneLine(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
}

/**
 * Shut down as on SIGTERM (save the state file, close, exit) on SIGINT, SIGTERM, SIGHUP, or when
 * the npm process that launched the node ends. Installed before the node says it is listening, so a
 * signal sent as soon as that line appears still saves.
 */
function shutDownOnSignals(server: ChainSimServer, exitWithLauncher: boolean): void {
  let closing = false;
  const options = server.node.options;
  // The node's log: JSON lines with --json, nothing with --quiet.
  const say = (line: string) => (options.json ? options.logger(line) : options.quiet ? undefined : console.log(line));
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    say(`${options.json ? '' : '\n'}${reason}, shutting down`);
    const saver = server.node.stateSaver;
    if (saver) say(`Saving the state to ${saver.path} (a second signal stops the save; the file keeps its previous content)`);
    // close() saves the state file last; a failed save must not look like a clean exit.
    server.close().then(
      (report) => {
        if (report) say(`State saved to ${report.path} in ${(report.ms / 1000).toFixed(2)} s (${formatBytes(report.bytes)}${restarts(report.attempts)})`);
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`chain-sim: ${oneLine(error instanceof Error ? error.message : String(error))}`);
        process.exit(1);
      },
    );
  };
  // once: a second Ctrl-C while the state is being saved exits at once, as usual.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => shutdown(`${signal} received`));
  const launcher = exitWithLauncher ? findNpmLauncher() : undefined;
  if (launcher) {
    // [npm's script shell, npm] or [npm]: the shell's wake-ups tell a SIGINT sent to npm.
    const shell = launcher.length === 2 ? launcher[0] : undefined;
    watchLauncher(
      launcher,
      (why) => {
        // The terminal or pipe npm wrote to may be gone with it: a failed write must not stop the save.
        for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
        shutdown(why === 'gone' ? 'the npm process that started chain-sim has ended' : 'the npm process that started chain-sim was interrupted (SIGINT)');
      },
      undefined,
      shell,
    );
  }
}

/** A file size for the log: bytes, KB or MB (decimal, as `ls -h --si`). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} KB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The log's note of saves started again after a revert took the state being saved away. */
function restarts(attempts: number): string {
  return attempts > 1 ? `; started again ${attempts - 1} time${attempts > 2 ? 's' : ''}: a revert took the state being saved away` : '';
}

/** The node options the command line gives (unresolved: startNode merges them with the files they name) and the CLI's own switch. */
export async function parseCommandLine(argv: string[], command: CommandName = 'chain-sim'): Promise<{ options: ChainSimOptions; exitWithLauncher: boolean }> {
  const args = await buildParser(expandNegations(normalizeForkFlags(argv)), command)
    .fail((message, error) => {
      throw error ?? new Error(withNearestFlag(message));
    })
    .parseAsync();
  const given = toOptions(args as Record<string, unknown>);
  return { options: command === 'ganache' ? withGanacheDefaults(given) : given, exitWithLauncher: args['exit-with-launcher'] !== false };
}

/** Every long flag (and long alias) by which an option is given, for the nearest one to a misspelt flag. */
const FLAG_NAMES: readonly (readonly [string, string])[] = [
  ...OPTION_DECLARATIONS.flatMap((decl) => [decl.flag, ...[decl.alias ?? []].flat()]),
  ...CLI_SWITCHES,
  'help',
  'version',
]
  .filter((name) => name.length > 1)
  .map((name) => [name, `--${name}`] as const);

/** yargs' refusal of one unknown flag, with the nearest known one: "Unknown argument: prot: did you mean '--port'?". */
export function withNearestFlag(message: string): string {
  const name = /^Unknown argument: ([^,\s]+)$/.exec(message)?.[1];
  const nearest = name === undefined ? undefined : nearestName(name, FLAG_NAMES);
  return nearest === undefined ? message : `${message}: did you mean '${nearest}'?`;
}

/** The line a script waits for: chain-sim's `Listening on URL`, or Ganache's `RPC Listening on HOST:PORT` under its name. */
function listeningLine(command: CommandName, url: string): string {
  return command === 'ganache' ? `RPC Listening on ${new URL(url).host}` : `Listening on ${url}`;
}

/** What the launcher (bin/loadCli.js) is told. */
export interface LaunchHooks {
  /** Once the server listens, before V8's heap flags change: the launcher saves its code cache. */
  readonly listening?: () => void;
}

export async function main(argv: string[] = hideBin(process.argv), command: CommandName = 'chain-sim', hooks: LaunchHooks = {}): Promise<number> {
  if (command === 'chain-sim' && argv[0] === 'export') return (await import('./exportCommand.js')).exportCommand(argv.slice(1));
  if (command === 'chain-sim' && argv[0] === 'compile-serpent') {
    if (argv.length !== 2) {
      console.error('usage: chain-sim compile-serpent FILE');
      return 1;
    }
    return compileSerpentCommand(argv[1]!);
  }
  try {
    const { options: given, exitWithLauncher } = await parseCommandLine(argv, command);
    // Resolved by startNode, which lets a saved state file fill in the chain settings not given here.
    const server = new ChainSimServer(await startNode(given));
    shutDownOnSignals(server, exitWithLauncher);
    const options = server.node.options;
    const { url } = await server.listen();
    hooks.listening?.();
    void useCompactHeap();
    if (options.json) {
      const accounts = server.node.chain.accounts.list().map((a) => toChecksumAddress(a.toString()));
      console.log(JSON.stringify({ time: new Date().toISOString(), message: `Listening on ${url}`, url, chainId: Number(options.chainId), accounts }));
    } else if (options.quiet) console.log(listeningLine(command, url));
    else console.log(banner(server.node, listeningLine(command, url)));
    if (!['127.0.0.1', 'localhost', '::1'].includes(options.host)) {
      console.warn(`Warning: listening on ${options.host}: the unlocked accounts can be used by anyone who can reach this address.`);
    }
    if (options.stateFile !== undefined && !options.quiet) console.log(`State file: ${options.stateFile} (saved on exit)`);
  } catch (error) {
    console.error(`${command}: ${oneLine(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
  return 0;
}
