/**
 * --print-traces: after each block is mined, a call tree per transaction, as Anvil prints
 * with -vvvv. Each transaction is run again with the call tracer (as debug_traceTransaction
 * does); the tree shows the calls, their value, gas used, and how each ended. With the
 * project's artifacts (docs/contracts.md) frames of known contracts are named as forge names
 * them (`Token::transfer(0x…, 5)`), with their events and decoded results.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { TraceNamer } from '../contracts/namedTrace.js';
import type { ContractRegistry } from '../contracts/registry.js';
import { type MinedBlock, BlockGoneError, type Chain, CONSOLE_ADDRESS, formatConsoleCall, type CallFrame, type CallLog, CallTracer } from '../engine/index.js';

/** Prints the trees of every transaction in each new block; returns the function that stops it. */
export function printTraces(chain: Chain, log: (line: string) => void, contracts?: ContractRegistry): () => void {
  const onBlock = (mined: MinedBlock) => {
    const hashes = mined.block.transactions.map((tx) => bytesToHex(tx.hash()));
    void (async () => {
      for (const hash of hashes) {
        // Names need each frame's code and logs: only kept when there are artifacts to name them with.
        const named = contracts?.active === true;
        const tracer = new CallTracer(named, undefined, named);
        const run = await chain.traceTransaction(hash, tracer).catch((error: unknown) => {
          if (error instanceof BlockGoneError) return undefined;
          throw error;
        });
        // Gone already (a revert or reset ran first, or while it was traced): nothing to show.
        if (!run || !tracer.root) continue;
        log(formatTrace(hash, { ...tracer.root, gasUsed: run.result.totalGasSpent }, named ? new TraceNamer(contracts!) : undefined));
      }
    })().catch((error: unknown) => chain.emit('error', error));
  };
  chain.on('block', onBlock);
  return () => chain.off('block', onBlock);
}

/** "Traces:" then one line per frame, indented by depth, as Anvil lays them out; with a namer, as forge names them. */
export function formatTrace(hash: string, root: CallFrame, namer?: TraceNamer): string {
  const lines = [`Traces for ${hash}:`];
  namer?.learn(root);
  const walk = (frame: CallFrame, prefix: string, last: boolean, top: boolean) => {
    const branch = top ? '' : last ? '└─ ' : '├─ ';
    const named = namer?.name(frame);
    lines.push(
      `${prefix}${branch}${named ? `[${frame.gasUsed}] ${namer!.describe(named)}` : namer && isConsole(frame) ? consoleCall(frame) : describe(frame)}`,
    );
    const childPrefix = top ? `${prefix}  ` : prefix + (last ? '   ' : '│  ');
    const items = entries(frame, namer !== undefined);
    items.forEach((item, i) => {
      if (item.call) walk(item.call, childPrefix, i === items.length - 1, false);
      else lines.push(`${childPrefix}${i === items.length - 1 ? '└─ ' : '├─ '}${namer!.event(item.log!, named)}`);
    });
    lines.push(`${childPrefix}← ${named ? namer!.end(frame, named) : namer && isConsole(frame) ? '[Stop]' : ending(frame)}`);
  };
  walk(root, '  ', true, true);
  return lines.join('\n');
}

/**
 * A frame's calls, and (with names) its events where they were emitted among them: a failed
 * frame's too, which the chain discarded (forge -vvvv shows them in a reverted call).
 */
function entries(frame: CallFrame, withEvents: boolean): { call?: CallFrame; log?: CallLog }[] {
  const logs = frame.logs.length > 0 ? frame.logs : (frame.revertedLogs ?? []);
  if (!withEvents || logs.length === 0) return frame.calls.map((call) => ({ call }));
  const items: { call?: CallFrame; log?: CallLog }[] = [];
  let next = 0;
  frame.calls.forEach((call, i) => {
    while (next < logs.length && logs[next]!.position <= i) items.push({ log: logs[next++] });
    items.push({ call });
  });
  while (next < logs.length) items.push({ log: logs[next++] });
  return items;
}

function ending(frame: CallFrame): string {
  return `${frame.error ? `[${frame.error}${frame.revertReason ? `: ${frame.revertReason}` : ''}]` : '[Return]'} ${short(frame.output)}`;
}

function isConsole(frame: CallFrame): boolean {
  return frame.to !== undefined && equalsBytes(frame.to.bytes, CONSOLE_ADDRESS.bytes);
}

/** A console.sol call, as forge shows it: `console::log("withdraw 5") [staticcall]`. */
function consoleCall(frame: CallFrame): string {
  const line = formatConsoleCall(frame.input);
  return line === undefined ? describe(frame) : `[${frame.gasUsed}] console::log(${JSON.stringify(line)}) [staticcall]`;
}

function describe(frame: CallFrame): string {
  const target = frame.to?.toString() ?? '(failed creation)';
  const value = frame.value ? ` value: ${frame.value}` : '';
  const selector = frame.type.startsWith('CREATE')
    ? `${frame.input.length} bytes of init code`
    : frame.input.length >= 4
      ? bytesToHex(frame.input.subarray(0, 4))
      : frame.input.length > 0
        ? bytesToHex(frame.input)
        : 'fallback';
  return `[${frame.gasUsed}] ${frame.type} ${frame.from.toString()} → ${target}::${selector}${value}`;
}

function short(data: Uint8Array): string {
  if (data.length === 0) return '';
  const hex = bytesToHex(data);
  return hex.length > 74 ? `${hex.slice(0, 74)}… (${data.length} bytes)` : hex;
}
