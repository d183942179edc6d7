/**
 * --print-traces: after each block is mined, a call tree per transaction, as Anvil prints
 * with -vvvv. Each transaction is run again with the call tracer (as debug_traceTransaction
 * does); the tree shows the calls, their value, gas used, and how each ended.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { MinedBlock } from './engine/blocks/blocks.js';
import { BlockGoneError, type Chain } from './engine/chain.js';
import { type CallFrame, CallTracer } from './engine/tracers/tracing.js';

/** Prints the trees of every transaction in each new block; returns the function that stops it. */
export function printTraces(chain: Chain, log: (line: string) => void): () => void {
  const onBlock = (mined: MinedBlock) => {
    const hashes = mined.block.transactions.map((tx) => bytesToHex(tx.hash()));
    void (async () => {
      for (const hash of hashes) {
        const tracer = new CallTracer(false);
        const run = await chain.traceTransaction(hash, tracer).catch((error: unknown) => {
          if (error instanceof BlockGoneError) return undefined;
          throw error;
        });
        // Gone already (a revert or reset ran first, or while it was traced): nothing to show.
        if (!run || !tracer.root) continue;
        log(formatTrace(hash, { ...tracer.root, gasUsed: run.result.totalGasSpent }));
      }
    })().catch((error: unknown) => chain.emit('error', error));
  };
  chain.on('block', onBlock);
  return () => chain.off('block', onBlock);
}

/** "Traces:" then one line per frame, indented by depth, as Anvil lays them out. */
export function formatTrace(hash: string, root: CallFrame): string {
  const lines = [`Traces for ${hash}:`];
  const walk = (frame: CallFrame, prefix: string, last: boolean, top: boolean) => {
    const branch = top ? '' : last ? '└─ ' : '├─ ';
    lines.push(`${prefix}${branch}${describe(frame)}`);
    const childPrefix = top ? `${prefix}  ` : prefix + (last ? '   ' : '│  ');
    frame.calls.forEach((child, i) => walk(child, childPrefix, i === frame.calls.length - 1, false));
    lines.push(
      `${childPrefix}${frame.error ? `← [${frame.error}${frame.revertReason ? `: ${frame.revertReason}` : ''}]` : '← [Return]'} ${short(frame.output)}`,
    );
  };
  walk(root, '  ', true, true);
  return lines.join('\n');
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
