/**
 * What a browser explorer needs that no other method answers (docs/explorer.md):
 * chain_accountKeys, the node's own accounts with their keys, as `npx chain-sim` prints them at
 * start; and chain_identifyContract, the project's contract at an address (name, source, ABI),
 * as failures and traces already name it (docs/contracts.md). Both answer whoever may send
 * JSON-RPC: the Host check and the CORS list keep foreign pages from reading them
 * (docs/security.md).
 */
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import type { CompiledContract } from '../../../contracts/compiled.js';
import { identifyAddress } from '../../../contracts/identify.js';
import { address } from '../../codec.js';
import { defineMethod, param } from '../../method.js';
import type { Json } from '../../json.js';
import type { BlockRef } from '../../../engine/index.js';

function describeContract(contract: CompiledContract | undefined): Json {
  if (!contract) return null;
  return { name: contract.name, sourceName: contract.sourceName, abi: contract.abi as unknown as Json };
}

const LATEST: BlockRef = { tag: 'latest' };

export const explorerMethods = [
  defineMethod('chain_accountKeys', [], ({ chain }) =>
    chain.accounts.list().map((who) => ({ address: who.toString(), privateKey: bytesToHex(chain.accounts.privateKeyOf(who)!) })),
  ),
  defineMethod('chain_identifyContract', [param('address', address)], async ({ chain, contracts }, who) => {
    const reader = {
      code: (at: string) => chain.getCode(createAddressFromString(at), LATEST),
      storage: (at: string, slot: Uint8Array) => chain.getStorageAt(createAddressFromString(at), slot, LATEST),
    };
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
      ...(proxy ? { proxy: { standard: proxy.standard, implementation: proxy.implementation, contract: describeContract(proxy.target) } } : {}),
    };
  }),
];
