/**
 * debug_traceTransaction and debug_traceCall with go-ethereum's built-in tracers (the struct
 * logger by default; traceOutput.ts). Output is go-ethereum's JSON, field for field.
 */
import { TraceBudget, type CallOverrides } from '../../../engine/index.js';
import { blockRef, callRequest, hash } from '../../codec.js';
import { serverError } from '../../errors.js';
import { transactionArgument } from '../../forkForwarding.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import { blockOverrides, callOverrides, stateOverrides } from '../../overrides.js';
import { DEFAULT_TRACE_CONFIG, type TracerConfig, traceConfig } from '../../traceConfig.js';
import { TraceNames } from '../../namedTraceOutput.js';
import { startTrace } from '../../traceOutput.js';

/** go-ethereum's TraceCallConfig: a trace config with `stateOverrides` and `blockOverrides` beside it. */
const traceCallConfig = (value: unknown, path: string): { trace: TracerConfig; overrides: CallOverrides | undefined } => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { trace: traceConfig(value, path), overrides: undefined };
  const { stateOverrides: state, blockOverrides: block, ...rest } = value as Record<string, unknown>;
  return {
    trace: traceConfig(rest, path),
    overrides: callOverrides(
      state === undefined || state === null ? undefined : stateOverrides(state, `${path}.stateOverrides`),
      block === undefined || block === null ? undefined : blockOverrides(block, `${path}.blockOverrides`),
    ),
  };
};

export const debugTraceMethods = [
  defineMethod(
    { name: 'chain_traceTransaction', aliases: ['debug_traceTransaction'], forwardOnFork: transactionArgument('debug_traceTransaction', 0) },
    [param('transactionHash', hash), optionalParam('config', traceConfig)],
    async ({ chain, contracts }, txHash, config = DEFAULT_TRACE_CONFIG) => {
      const trace = startTrace(config, new TraceBudget(), TraceNames.of(contracts));
      const run = await chain.traceTransaction(txHash, trace.tracer);
      if (!run) throw serverError('transaction not found');
      return trace.result(run);
    },
  ),
  defineMethod(
    { name: 'chain_traceCall', aliases: ['debug_traceCall'] },
    [param('transaction', callRequest), optionalParam('block', blockRef), optionalParam('config', traceCallConfig)],
    async ({ chain, contracts }, request, ref, config = { trace: DEFAULT_TRACE_CONFIG, overrides: undefined }) => {
      const trace = startTrace(config.trace, new TraceBudget(), TraceNames.of(contracts));
      return trace.result(await chain.traceCall(request, ref ?? { tag: 'latest' }, trace.tracer, config.overrides));
    },
  ),
];
