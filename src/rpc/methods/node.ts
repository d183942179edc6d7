/** Node status and identity: chainId, syncing, mining, accounts, coinbase, net_*, web3_*. */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { data } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, param as p } from '../method.js';

export const nodeMethods = [
  defineMethod('chain_chainId', [], ({ chain }) => encodeQuantity(chain.chainId)),
  defineMethod('chain_syncing', [], () => false),
  defineMethod('chain_mining', [], ({ chain, pow }) => chain.isMining() || (pow?.mining ?? false)),
  defineMethod('chain_accounts', [], ({ chain }) => chain.accounts.addresses().map((a) => a.toString())),
  defineMethod('chain_coinbase', [], ({ chain }) => chain.coinbase.toString()),
  defineMethod('chain_protocolVersion', [], () => '0x41'),
  defineMethod('net_version', [], ({ chain, networkId }) => (networkId ?? chain.chainId).toString()),
  defineMethod('net_listening', [], () => true),
  defineMethod('net_peerCount', [], () => encodeQuantity(0)),
  defineMethod('web3_clientVersion', [], ({ clientVersion }) => clientVersion),
  defineMethod('web3_sha3', [p('data', data)], (_ctx, input) => encodeData(keccak_256(input))),
];
