/**
 * What a browser explorer needs that no other method answers (docs/explorer.md):
 * chain_accountKeys, the node's own accounts with their keys, as `npx chain-sim` prints them at
 * start; chain_identifyContract, the project's contract at an address (name, source, ABI),
 * as failures and traces already name it (docs/contracts.md); and chain_deployedContracts, the
 * contracts the chain's blocks created, newest first, a page at a time. They answer whoever may
 * send JSON-RPC: the Host check and the CORS list keep foreign pages from reading them
 * (docs/security.md).
 */
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import type { CompiledContract } from '../../../contracts/compiled.js';
import { type ChainReader, identifyAddress } from '../../../contracts/identify.js';
import { address, pageSize, smallCount } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import type { Json } from '../../json.js';
import { type BlockRef, type Chain, type DeployedContract, EngineError, RevertError } from '../../../engine/index.js';

function describeContract(contract: CompiledContract | undefined): Json {
  if (!contract) return null;
  return { name: contract.name, sourceName: contract.sourceName, abi: contract.abi as unknown as Json };
}

const LATEST: BlockRef = { tag: 'latest' };

/** The latest state as an identification reads it; its calls let it follow a beacon proxy to its implementation. */
function latestReader(chain: Chain): Required<ChainReader> {
  return {
    code: (at) => chain.getCode(createAddressFromString(at), LATEST),
    storage: (at, slot) => chain.getStorageAt(createAddressFromString(at), slot, LATEST),
    // A beacon that reverts or is no contract names no implementation; an upstream's failure is the answer's.
    call: (to, data) =>
      chain.call({ to: createAddressFromString(to), data }, LATEST).catch((error: unknown) => {
        if (error instanceof RevertError || error instanceof EngineError) return undefined;
        throw error;
      }),
  };
}

/** How many contracts a page of chain_deployedContracts holds when not told. */
const PER_PAGE = 100;

function describeDeployment(deployed: DeployedContract): Json {
  const tx = deployed.mined.block.transactions[deployed.transaction]!;
  return {
    address: deployed.address.toString(),
    creator: deployed.creator.toString(),
    transactionHash: bytesToHex(tx.hash()),
    transactionIndex: encodeQuantity(deployed.transaction),
    blockNumber: encodeQuantity(deployed.mined.number),
    blockHash: deployed.mined.hashHex,
  };
}

export const explorerMethods = [
  defineMethod('chain_accountKeys', [], ({ chain }) =>
    chain.accounts.list().map((who) => ({ address: who.toString(), privateKey: bytesToHex(chain.accounts.privateKeyOf(who)!) })),
  ),
  defineMethod('chain_identifyContract', [param('address', address)], async ({ chain, contracts }, who) => {
    const reader = latestReader(chain);
    if (!contracts) {
      const code = await reader.code(who.toString());
      return code.length === 0 ? null : { address: who.toString(), contract: null };
    }
    const identified = await identifyAddress(contracts, reader, who.toString());
    if (!identified) return null;
    const proxy = identified.proxy;
    return {
      address: who.toString(),
      contract: describeContract(identified.contract),
      ...(proxy
        ? {
            proxy: {
              standard: proxy.standard,
              implementation: proxy.implementation,
              contract: describeContract(proxy.target),
              ...(proxy.beacon ? { beacon: { address: proxy.beacon.address, contract: describeContract(proxy.beacon.contract) } } : {}),
            },
          }
        : {}),
    };
  }),
  /**
   * Every contract the chain's blocks created since the node started (or since the fork point),
   * top level and by contracts, without those a revert undid: newest first, `limit` at a time;
   * `cursor` is the previous page's `next`.
   */
  defineMethod('chain_deployedContracts', [optionalParam('limit', pageSize), optionalParam('cursor', smallCount)], ({ chain }, limit, cursor) => {
    const page = chain.blocks.deployedContracts(cursor ?? Number.MAX_SAFE_INTEGER, limit ?? PER_PAGE);
    return {
      contracts: page.contracts.map(describeDeployment),
      total: encodeQuantity(page.total),
      next: page.next === undefined ? null : encodeQuantity(page.next),
    };
  }),
];
