/**
 * debug_traceTransaction and debug_traceCall with go-ethereum's built-in tracers (the struct
 * logger by default; traceOutput.ts). Output is go-ethereum's JSON, field for field.
 */
import { TraceBudget } from '../../engine/tracing.js';
import { blockRef, callRequest, hash } from '../codec.js';
import { serverError } from '../errors.js';
import { defineMethod, optionalParam, param } from '../method.js';
import { type TracerConfig, traceConfig } from '../traceConfig.js';
import { startTrace } from '../traceOutput.js';

export const DEFAULT_TRACE_CONFIG: TracerConfig = { tracer: 'structLogs', disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 };

export const debugMethods = [
  defineMethod('chain_traceTransaction', [param('transactionHash', hash), optionalParam('config', traceConfig)], async ({ chain }, txHash, config = DEFAULT_TRACE_CONFIG) => {
    const trace = startTrace(config, new TraceBudget());
    const run = await chain.traceTransaction(txHash, trace.tracer);
    if (!run) throw serverError('transaction not found');
    return trace.result(run);
  }),
  defineMethod(
    'chain_traceCall',
    [param('transaction', callRequest), optionalParam('block', blockRef), optionalParam('config', traceConfig)],
    async ({ chain }, request, ref, config = DEFAULT_TRACE_CONFIG) => {
      const trace = startTrace(config, new TraceBudget());
      return trace.result(await chain.traceCall(request, ref ?? { tag: 'latest' }, trace.tracer));
    },
  ),
];
