/**
 * The method table: every method under its canonical `chain_` name, its `eth_`
 * twin, and the names other tools' users call. Aliases are data.
 */
import type { RpcMethod } from './method.js';
import { invalidParams } from './errors.js';
import { anvilMethods } from './methods/anvil.js';
import { chainExportMethods } from './methods/chainExport.js';
import { compilerMethods } from './methods/compilers.js';
import { debugMethods } from './methods/debug.js';
import { dropinMethods } from './methods/dropin.js';
import { gethReadMethods } from './methods/gethReads.js';
import { erc20Methods } from './methods/erc20.js';
import { blockTraceMethods } from './methods/blockTraces.js';
import { rawDataMethods } from './methods/rawData.js';
import { parityTraceMethods } from './methods/parityTraces.js';
import { otterscanMethods } from './methods/otterscan.js';
import { controlMethods } from './methods/control.js';
import { stateMethods } from './methods/state.js';
import { forkMethods } from './methods/fork.js';
import { executionMethods } from './methods/execution.js';
import { feeMethods } from './methods/fees.js';
import { filterMethods } from './methods/filters.js';
import { genesisMethods } from './methods/genesis.js';
import { nodeMethods } from './methods/node.js';
import { personalMethods } from './methods/personal.js';
import { poolMethods } from './methods/pool.js';
import { powMethods } from './methods/pow.js';
import { readMethods } from './methods/reads.js';
import { simulateMethods } from './methods/simulate.js';
import { transactionMethods } from './methods/transactions.js';

export type MethodTable = ReadonlyMap<string, RpcMethod>;

/** Extra names for canonical methods, beyond the automatic chain_X → eth_X. */
export const EXTRA_ALIASES: Readonly<Record<string, readonly string[]>> = {
  evm_snapshot: ['anvil_snapshot'],
  evm_revert: ['anvil_revert'],
  chain_getAutomine: ['hardhat_getAutomine', 'anvil_getAutomine'],
  chain_setAutomine: ['evm_setAutomine', 'anvil_setAutomine'],
  chain_setNextBlockTimestamp: ['evm_setNextBlockTimestamp', 'anvil_setNextBlockTimestamp'],
  chain_setTime: ['evm_setTime', 'anvil_setTime'],
  chain_setBlockTimestampInterval: ['anvil_setBlockTimestampInterval'],
  chain_removeBlockTimestampInterval: ['anvil_removeBlockTimestampInterval'],
  chain_setBalance: ['hardhat_setBalance', 'anvil_setBalance', 'evm_setAccountBalance'],
  chain_setCode: ['hardhat_setCode', 'anvil_setCode', 'evm_setAccountCode'],
  chain_setNonce: ['anvil_setNonce', 'evm_setAccountNonce'],
  chain_setStorageAt: ['hardhat_setStorageAt', 'anvil_setStorageAt', 'evm_setAccountStorageAt'],
  chain_impersonateAccount: ['hardhat_impersonateAccount', 'anvil_impersonateAccount'],
  chain_stopImpersonatingAccount: ['hardhat_stopImpersonatingAccount', 'anvil_stopImpersonatingAccount'],
  chain_autoImpersonateAccount: ['anvil_autoImpersonateAccount'],
  chain_setCoinbase: ['hardhat_setCoinbase', 'anvil_setCoinbase'],
  chain_setNextBlockBaseFeePerGas: ['hardhat_setNextBlockBaseFeePerGas', 'anvil_setNextBlockBaseFeePerGas'],
  chain_setPrevRandao: ['hardhat_setPrevRandao', 'anvil_setNextBlockPrevRandao'],
  chain_setBlockGasLimit: ['evm_setBlockGasLimit', 'anvil_setBlockGasLimit'],
  chain_dropTransaction: ['hardhat_dropTransaction'],
  chain_signTypedData_v4: ['eth_signTypedData'],
  chain_loadState: ['anvil_loadState', 'hardhat_loadState'],
  // viem's hardhat mode sends hardhat_dumpState: Anvil's gzipped hex, which anvil_loadState and hardhat_loadState take.
  anvil_dumpState: ['hardhat_dumpState'],
  anvil_dealERC20: ['anvil_setERC20Balance'],
  chain_reset: ['hardhat_reset', 'anvil_reset'],
  chain_metadata: ['hardhat_metadata', 'anvil_metadata'],
  chain_setLoggingEnabled: ['hardhat_setLoggingEnabled', 'anvil_setLoggingEnabled'],
  chain_txpoolStatus: ['txpool_status'],
  chain_txpoolContent: ['txpool_content'],
  chain_txpoolInspect: ['txpool_inspect'],
  chain_traceTransaction: ['debug_traceTransaction'],
  chain_traceCall: ['debug_traceCall'],
};

export function buildMethodTable(groups: ReadonlyArray<readonly RpcMethod[]> = DEFAULT_GROUPS): MethodTable {
  const table = new Map<string, RpcMethod>();
  const add = (name: string, method: RpcMethod) => {
    if (table.has(name)) throw new Error(`method ${name} defined twice`);
    table.set(name, method);
  };
  for (const group of groups) {
    for (const method of group) {
      add(method.name, method);
      // Test controls, the pool and tracing have no eth_ twin: clients know them as evm_/hardhat_/anvil_/txpool_/debug_.
      if (method.name.startsWith('chain_') && !WITHOUT_ETH_TWIN.has(method)) add(`eth_${method.name.slice('chain_'.length)}`, method);
      for (const alias of EXTRA_ALIASES[method.name] ?? []) add(alias, method);
    }
  }
  add('rpc_modules', rpcModules(table));
  return table;
}

/** go-ethereum's rpc_modules: each namespace served (the prefix of its methods' names), at version 1.0. */
function rpcModules(table: ReadonlyMap<string, RpcMethod>): RpcMethod {
  return {
    name: 'rpc_modules',
    params: [],
    async invoke(_ctx, params) {
      if (params.length > 0) throw invalidParams('too many arguments, want at most 0');
      const namespaces = new Set([...table.keys()].map((name) => name.split('_')[0]!));
      return Object.fromEntries([...namespaces].sort().map((namespace) => [namespace, '1.0']));
    },
  };
}

const WITHOUT_ETH_TWIN: ReadonlySet<RpcMethod> = new Set([
  ...personalMethods,
  ...controlMethods,
  ...stateMethods,
  ...genesisMethods,
  ...chainExportMethods,
  ...poolMethods,
  ...debugMethods,
]);

const DEFAULT_GROUPS = [
  nodeMethods,
  personalMethods,
  readMethods,
  executionMethods,
  simulateMethods,
  transactionMethods,
  feeMethods,
  controlMethods,
  stateMethods,
  genesisMethods,
  compilerMethods,
  filterMethods,
  powMethods,
  chainExportMethods,
  poolMethods,
  debugMethods,
  dropinMethods,
  gethReadMethods,
  erc20Methods,
  blockTraceMethods,
  rawDataMethods,
  parityTraceMethods,
  otterscanMethods,
  forkMethods,
  anvilMethods,
];
