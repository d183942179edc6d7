/**
 * The method table: the records of src/rpc/methods/ collected (its folders by namespace, eth/,
 * debug/, trace/, ots/, txpool/, personal/, the test controls' controls/, and one file per
 * remaining subject), each under every name it owns (its own, its aliases, its variants').
 * Which names a record answers to is decided by the record alone, not by the file or group it
 * sits in.
 */
import type { MethodRecord, RpcMethod } from './method.js';
import { invalidParams } from './errors.js';
// eth_ (chain_ records with their eth_ twins)
import { blockMethods } from './methods/eth/blocks.js';
import { executionMethods } from './methods/eth/execution.js';
import { feeMethods } from './methods/eth/fees.js';
import { filterMethods } from './methods/eth/filters.js';
import { simulateMethods } from './methods/eth/simulate.js';
import { stateReadMethods } from './methods/eth/state.js';
import { transactionMethods } from './methods/eth/transactions.js';
// Other tools' namespaces
import { blockTraceMethods } from './methods/debug/blockTraces.js';
import { rawDataMethods } from './methods/debug/rawData.js';
import { debugTraceMethods } from './methods/debug/tracing.js';
import { replayTraceMethods } from './methods/trace/replays.js';
import { transactionTraceMethods } from './methods/trace/transactions.js';
import { otterscanMethods } from './methods/ots/otterscan.js';
import { txpoolMethods } from './methods/txpool/content.js';
import { personalMethods } from './methods/personal/accounts.js';
// Test controls (chain_ records with Hardhat's, Anvil's and Ganache's names, and their only-tool methods)
import { accountMethods } from './methods/controls/accounts.js';
import { artifactMethods } from './methods/controls/artifacts.js';
import { blockSettingMethods } from './methods/controls/blockSettings.js';
import { explorerMethods } from './methods/controls/explorer.js';
import { forkMethods } from './methods/controls/fork.js';
import { historyMethods } from './methods/controls/history.js';
import { miningMethods } from './methods/controls/mining.js';
import { nodeControlMethods } from './methods/controls/node.js';
import { poolControlMethods } from './methods/controls/pool.js';
import { setterMethods } from './methods/controls/setters.js';
import { stateMethods } from './methods/controls/state.js';
import { timeMethods } from './methods/controls/time.js';
// One subject each
import { blobMethods } from './methods/blobs.js';
import { chainExportMethods } from './methods/chainExport.js';
import { compilerMethods } from './methods/compilers.js';
import { configMethods } from './methods/config.js';
import { erc20Methods } from './methods/erc20.js';
import { genesisMethods } from './methods/genesis.js';
import { nodeMethods } from './methods/node.js';
import { powMethods } from './methods/pow.js';
import { testingMethods } from './methods/testing.js';

export type MethodTable = ReadonlyMap<string, RpcMethod>;

/**
 * Every name of every record, each served once. The names are the records' own (method.ts):
 * the table adds none, it only refuses a name that two records (or one record twice) claim.
 */
export function buildMethodTable(groups: ReadonlyArray<readonly MethodRecord[]> = DEFAULT_GROUPS): MethodTable {
  const table = new Map<string, RpcMethod>();
  const add = (name: string, method: RpcMethod) => {
    const claimed = table.get(name);
    if (claimed) throw new Error(`the method name ${name} is claimed twice: by the record ${claimed.name} and by the record ${method.name}`);
    table.set(name, method);
  };
  for (const group of groups) {
    for (const record of group) {
      for (const method of [record, ...record.variants]) {
        add(method.name, method);
        for (const alias of method.aliases) add(alias, method);
      }
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

const DEFAULT_GROUPS: ReadonlyArray<readonly MethodRecord[]> = [
  stateReadMethods,
  blockMethods,
  transactionMethods,
  executionMethods,
  simulateMethods,
  feeMethods,
  filterMethods,
  debugTraceMethods,
  blockTraceMethods,
  rawDataMethods,
  transactionTraceMethods,
  replayTraceMethods,
  otterscanMethods,
  txpoolMethods,
  personalMethods,
  historyMethods,
  miningMethods,
  timeMethods,
  setterMethods,
  accountMethods,
  blockSettingMethods,
  poolControlMethods,
  nodeControlMethods,
  stateMethods,
  forkMethods,
  artifactMethods,
  explorerMethods,
  nodeMethods,
  powMethods,
  compilerMethods,
  erc20Methods,
  chainExportMethods,
  genesisMethods,
  testingMethods,
  configMethods,
  blobMethods,
];
