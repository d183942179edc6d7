/** Node status and identity: chainId, syncing, mining, accounts, coinbase, networkId, capabilities, net_*, web3_*. */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { clientVersionOf } from '../clientRules.js';
import { data } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, param as p } from '../method.js';

export const nodeMethods = [
  defineMethod({ name: 'chain_chainId', aliases: ['eth_chainId'] }, [], ({ chain }) => encodeQuantity(chain.chainId)),
  defineMethod({ name: 'chain_syncing', aliases: ['eth_syncing'] }, [], () => false),
  defineMethod({ name: 'chain_mining', aliases: ['eth_mining'] }, [], ({ chain, pow }) => chain.isMining() || (pow?.mining ?? false)),
  defineMethod({ name: 'chain_accounts', aliases: ['eth_accounts'] }, [], ({ chain }) => chain.accounts.addresses().map((a) => a.toString())),
  defineMethod({ name: 'chain_coinbase', aliases: ['eth_coinbase'] }, [], ({ chain }) => chain.coinbase.toString()),
  defineMethod({ name: 'chain_protocolVersion', aliases: ['eth_protocolVersion'] }, [], () => '0x41'),
  defineMethod('eth_requestAccounts', [], ({ chain }) => chain.accounts.list().map((a) => a.toString())),
  defineMethod('eth_networkId', [], ({ chain }) => chain.chainId.toString()),
  // EIP routing capabilities: an in-memory chain keeps everything from genesis (no delete strategy).
  defineMethod({ name: 'chain_capabilities', aliases: ['eth_capabilities'] }, [], ({ chain }) => {
    const all = { disabled: false, oldestBlock: '0x0' };
    return {
      head: { number: encodeQuantity(chain.head.number), hash: chain.head.hashHex },
      state: all,
      tx: all,
      logs: all,
      receipts: all,
      blocks: all,
      stateproofs: all,
    };
  }),
  defineMethod('net_version', [], ({ chain, networkId }) => (networkId ?? chain.chainId).toString()),
  defineMethod('net_listening', [], () => true),
  defineMethod('net_peerCount', [], () => encodeQuantity(0)),
  // Who asks decides: Hardhat's clients get Hardhat's node's name (clientRules.ts).
  defineMethod('web3_clientVersion', [], ({ rules, version }) => clientVersionOf(rules, version)),
  defineMethod('web3_sha3', [p('data', data)], (_ctx, input) => encodeData(keccak_256(input))),
];
