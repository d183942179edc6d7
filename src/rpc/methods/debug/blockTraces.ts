/**
 * debug_traceBlockByNumber, debug_traceBlockByHash and debug_traceBlock (an RLP block):
 * every transaction of the block replayed on a copy of the state it started from, each with
 * a fresh tracer, answered as go-ethereum does: `[{ txHash, result }]`. The tracers of one
 * answer share one size budget (tracing.ts's TraceBudget), so a full block is bounded as
 * one transaction's trace is.
 */
import { type Chain, type BlockToTrace, TraceBudget } from '../../../engine/index.js';
import { blockNumberOrTag, data, hash } from '../../codec.js';
import { encodeData } from '../../encode.js';
import { serverError } from '../../errors.js';
import { blockArgument } from '../../forkForwarding.js';
import type { Json } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import { DEFAULT_TRACE_CONFIG, type TracerConfig, traceConfig } from '../../traceConfig.js';
import { TraceNames } from '../../namedTraceOutput.js';
import { type ActiveTrace, startTrace } from '../../traceOutput.js';

async function traceBlock(chain: Chain, target: BlockToTrace, config: TracerConfig = DEFAULT_TRACE_CONFIG, names?: TraceNames): Promise<Json> {
  const budget = new TraceBudget();
  const traces: ActiveTrace[] = [];
  const runs = await chain.traceBlock(target, (index) => (traces[index] = startTrace(config, budget, names)).tracer);
  return runs.map(({ hash: txHash, run }, i) => ({ txHash: encodeData(txHash), result: traces[i]!.result(run) }));
}

export const blockTraceMethods = [
  defineMethod(
    { name: 'debug_traceBlockByNumber', forwardOnFork: blockArgument('debug_traceBlockByNumber', 0) },
    [param('blockNumber', blockNumberOrTag), optionalParam('config', traceConfig)],
    ({ chain, contracts }, ref, config) => {
      if ('tag' in ref && ref.tag === 'pending') throw serverError('tracing the pending block is not supported');
      const number = 'number' in ref ? ref.number : chain.resolve(ref).number;
      return traceBlock(chain, { number }, config, TraceNames.of(contracts));
    },
  ),
  defineMethod(
    { name: 'debug_traceBlockByHash', forwardOnFork: blockArgument('debug_traceBlockByHash', 0) },
    [param('blockHash', hash), optionalParam('config', traceConfig)],
    ({ chain, contracts }, blockHash, config) => traceBlock(chain, { hash: blockHash }, config, TraceNames.of(contracts)),
  ),
  defineMethod('debug_traceBlock', [param('block', data), optionalParam('config', traceConfig)], ({ chain, contracts }, rlp, config) =>
    traceBlock(chain, { rlp }, config, TraceNames.of(contracts)),
  ),
];
