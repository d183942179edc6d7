/**
 * `chain-sim export FILE [--rpc-url URL] [--first N] [--last M]`: ask a running node for
 * its canonical blocks (chain_exportChain) and write them as `geth export` does, ready for
 * `--import`, and the genesis block beside it as a go-ethereum genesis.json (FILE.genesis.json,
 * from chain_exportGenesis) for `--genesis`. Long chains are fetched in ranges (each answer is bounded by the node), and
 * the file appears complete or not at all (written beside it, then renamed).
 */
import { writeFile } from 'node:fs/promises';
import yargs from 'yargs';
import { writeFileAtomically } from '../persistence/atomicFile.js';
import { clipLongRuns } from '../engine/index.js';
import { encodeQuantity } from '../rpc/encode.js';
import { RemoteRpcError, callRpc } from './rpcClient.js';

/** Blocks asked for per request; halved while the node answers that a range is too large. */
const BLOCKS_PER_REQUEST = 1024n;

interface ExportArgs {
  readonly file: string;
  readonly rpcUrl: string;
  readonly first: bigint | undefined;
  readonly last: bigint | undefined;
}

function blockNumber(flag: string, value: unknown): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Error(`--${flag}: expected a block number`);
  return BigInt(value);
}

async function parse(argv: string[]): Promise<ExportArgs> {
  const args = await yargs(argv)
    .scriptName('chain-sim export')
    .usage('$0 FILE [options]\n\nWrite the chain of a running node to FILE as RLP blocks (the format of geth export; load with --import FILE).')
    .option('rpc-url', { type: 'string', default: 'http://127.0.0.1:8545', describe: 'JSON-RPC endpoint of the node', requiresArg: true })
    .option('first', { type: 'number', describe: 'first block [default: 1]', requiresArg: true })
    .option('last', { type: 'number', describe: 'last block [default: the head]', requiresArg: true })
    .demandCommand(1, 1, 'expected one FILE', 'expected one FILE')
    .help('help')
    .alias('help', 'h')
    .version(false)
    .strict()
    .fail((message, error) => {
      throw error ?? new Error(message);
    })
    .parseAsync();
  return {
    file: String(args._[0]),
    rpcUrl: args['rpc-url'],
    first: blockNumber('first', args.first),
    last: blockNumber('last', args.last),
  };
}

/** Fetch blocks first..last in ranges and append them to `out`; returns the bytes written. */
async function writeBlocks(url: string, first: bigint, last: bigint, write: (bytes: Buffer) => Promise<void>): Promise<number> {
  let written = 0;
  let step = BLOCKS_PER_REQUEST;
  for (let from = first; from <= last; ) {
    const to = from + step - 1n < last ? from + step - 1n : last;
    let answer: unknown;
    try {
      answer = await callRpc(url, 'chain_exportChain', [encodeQuantity(from), encodeQuantity(to)]);
    } catch (error) {
      if (error instanceof RemoteRpcError && /export too large/.test(error.message) && step > 1n) {
        step /= 2n;
        continue;
      }
      throw error;
    }
    if (typeof answer !== 'string' || !/^0x([0-9a-f]{2})*$/i.test(answer)) throw new Error('chain_exportChain: the node answered no hex data');
    const bytes = Buffer.from(answer.slice(2), 'hex');
    await write(bytes);
    written += bytes.length;
    from = to + 1n;
  }
  return written;
}

async function writeChainFile(args: ExportArgs): Promise<string> {
  const head = BigInt((await callRpc(args.rpcUrl, 'eth_blockNumber')) as string);
  const first = args.first ?? 1n;
  const last = args.last ?? head;
  if (last > head) throw new Error(`--last ${last} is after the node's head ${head}`);
  if (first > last && (args.first !== undefined || args.last !== undefined)) throw new Error(`--first ${first} is after --last ${last}`);
  let bytes = 0;
  await writeFileAtomically(args.file, async (handle) => {
    bytes = await writeBlocks(args.rpcUrl, first, last, async (chunk) => {
      await handle.write(chunk);
    });
  });
  const count = last >= first ? last - first + 1n : 0n;
  return count === 0n
    ? `Exported no blocks (the chain has only its genesis block) to ${args.file}`
    : `Exported blocks ${first}..${last} (${bytes} bytes) to ${args.file}`;
}

interface ExportCheck {
  readonly blocks: readonly string[];
  readonly impersonatedTransactions: readonly string[];
  readonly changedAfterHead: boolean;
}

/**
 * A chain file holds blocks only: state changed by test controls outside any block, and sends
 * from impersonated accounts, cannot be replayed by `--import` (chain_exportCheck finds them).
 */
async function unexplainedWarnings(args: ExportArgs): Promise<string[]> {
  let check: ExportCheck;
  try {
    const range = [args.first === undefined ? null : encodeQuantity(args.first), args.last === undefined ? null : encodeQuantity(args.last)];
    check = (await callRpc(args.rpcUrl, 'chain_exportCheck', range)) as ExportCheck;
  } catch {
    return []; // a node without chain_exportCheck: nothing to say
  }
  const lines: string[] = [];
  const list = (items: readonly string[]) => (items.length > 5 ? `${items.slice(0, 5).join(', ')} and ${items.length - 5} more` : items.join(', '));
  if (check.blocks.length > 0) {
    lines.push(
      `the chain holds state changes no block explains (test controls such as setBalance, setCode, setNonce, setStorageAt or loadState before block ${list(check.blocks.map((n) => BigInt(n).toString()))}): --import of this file will fail there with "state root mismatch"`,
    );
  }
  if (check.impersonatedTransactions.length > 0) {
    lines.push(`transactions sent by impersonated accounts carry no real signature and cannot be imported: ${list(check.impersonatedTransactions)}`);
  }
  if (check.changedAfterHead) lines.push('the state was changed by test controls after the last block: those changes are in no block and not in the file');
  return lines;
}

export async function exportCommand(argv: string[]): Promise<number> {
  try {
    const args = await parse(argv);
    console.log(await writeChainFile(args));
    // The genesis beside the blocks: `--genesis FILE.genesis.json --import FILE` rebuilds the chain.
    await writeFile(`${args.file}.genesis.json`, `${JSON.stringify(await callRpc(args.rpcUrl, 'chain_exportGenesis'), null, 2)}\n`);
    for (const line of await unexplainedWarnings(args)) console.error(`chain-sim: export: warning: ${line}`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // One line, and no large input (a file name, a URL) echoed whole.
    console.error(`chain-sim: export: ${clipLongRuns(message.replace(/\s*\n\s*/g, ' '))}`);
    return 1;
  }
}
