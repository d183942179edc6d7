#!/usr/bin/env node
// An external proof-of-work miner for chain-sim, in plain JavaScript: it polls
// chain_getWork, searches nonces with chain-sim's own Ethash (light verification
// cache, no DAG) and hands solutions to chain_submitWork.
//
//   npx chain-sim --mining pow                    # terminal 1 (difficulty 16 by default)
//   node examples/pow-miner.mjs                   # terminal 2: mines on http://127.0.0.1:8545
//   node examples/pow-miner.mjs http://127.0.0.1:8545 --blocks 3   # stop after 3 blocks
//
// Then send transactions to the node as usual: they wait in its pool until this miner
// seals a block. It needs the compiled package (`npm run build`); the first run builds
// the epoch's Ethash cache (~1 s) and saves it where the node does (~/.cache/chain-sim).
// Each attempt costs a few milliseconds, so keep --difficulty low (canonical difficulty,
// 131072 and up, would take minutes per block).
import { randomBytes } from 'node:crypto';
import { EthashCacheStore, mineSeal, seedHash } from '../dist/src/engine/pow/ethash.js';

const args = process.argv.slice(2);
const url = args.find((a) => a.startsWith('http')) ?? 'http://127.0.0.1:8545';
const blocksIndex = args.indexOf('--blocks');
const maxBlocks = blocksIndex >= 0 ? Number(args[blocksIndex + 1]) : Infinity;
/** Nonces tried before asking for work again, so new transactions and blocks are picked up quickly. */
const ATTEMPTS_PER_ROUND = 50;
const MINER_ID = `0x${randomBytes(32).toString('hex')}`;

let requestId = 0;
async function rpc(method, params = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++requestId, method, params }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
  return body.result;
}

const toHex = (bytes) => `0x${Buffer.from(bytes).toString('hex')}`;
const fromHex = (text) => Uint8Array.from(Buffer.from(text.slice(2), 'hex'));

/** The epoch whose seed hash this is (keccak256 applied epoch times to zeros). */
function epochOfSeed(seedHex) {
  for (let epoch = 0; epoch < 2048; epoch++) if (toHex(seedHash(epoch)) === seedHex) return epoch;
  throw new Error(`unknown seed hash ${seedHex}`);
}

const store = new EthashCacheStore({ onWarning: (message) => console.error(`warning: ${message}`) });
let sealed = 0;
let attempts = 0;
let since = performance.now();
let nonce = BigInt(`0x${randomBytes(8).toString('hex')}`);
console.log(`mining on ${url}`);
while (sealed < maxBlocks) {
  const [powHash, seed, boundary] = await rpc('chain_getWork');
  const epoch = epochOfSeed(seed);
  const cache = await store.get(epoch);
  const difficulty = (1n << 256n) / BigInt(boundary);
  const seal = mineSeal(cache, epoch, fromHex(powHash), difficulty, { startNonce: nonce, maxAttempts: ATTEMPTS_PER_ROUND });
  nonce += BigInt(ATTEMPTS_PER_ROUND);
  attempts += ATTEMPTS_PER_ROUND;
  if (seal) {
    const accepted = await rpc('chain_submitWork', [toHex(seal.nonce), powHash, toHex(seal.mixDigest)]);
    if (accepted) {
      sealed++;
      const head = await rpc('chain_getBlockByNumber', ['latest', false]);
      console.log(`sealed block ${Number(head.number)} ${head.hash} (${head.transactions.length} transactions)`);
    } else {
      console.log(`solution for ${powHash} refused (stale work?)`);
    }
  }
  const seconds = (performance.now() - since) / 1000;
  if (seconds >= 5) {
    await rpc('chain_submitHashrate', [`0x${Math.round(attempts / seconds).toString(16)}`, MINER_ID]);
    attempts = 0;
    since = performance.now();
  }
}
store.close();
