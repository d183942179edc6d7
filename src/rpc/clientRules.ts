/**
 * Each client gets its own tool's rules. Where the tools answer the same request differently
 * (which node this is, what a send of a transaction that fails answers), the answer depends on
 * who asks, not on the node: Hardhat's plugins need Hardhat's forms, and every other client
 * (viem, ethers, web3.js, cast, curl) the forms go-ethereum and Anvil give. The transport says
 * which client a request comes from (src/server/userAgent.ts); the node's options say whether
 * that matters (RulesChoice); handlers read the outcome as RpcContext.rules. The chain_ names are
 * chain-sim's own and keep one contract for every client.
 */
import type { SendOptions } from '../engine/chain.js';

/**
 * The forms a request is answered in: 'plain' (go-ethereum's and Anvil's: chain-sim under its own
 * name, a failed send answers its hash), 'hardhat' (Hardhat's node's: a `HardhatNetwork/` client
 * version, a failed send answers Hardhat's error with its `txHash`), 'ganache' (the chain-sim/ganache
 * entry point: Ganache 7's client version).
 */
export type ClientRules = 'plain' | 'hardhat' | 'ganache';

/** A client the transport recognised: Hardhat's HTTP provider names itself in User-Agent. */
export type KnownClient = 'hardhat';

/** What the node gives: the same rules to every client (--hardhat-node, --no-hardhat-node, chain-sim/ganache), or each client its own. */
export type RulesChoice = ClientRules | 'per-client';

/** The rules a request gets: a client Hardhat's, any other client (or one that does not say) plain ones. */
export function rulesFor(choice: RulesChoice, client: KnownClient | undefined): ClientRules {
  if (choice !== 'per-client') return choice;
  return client === 'hardhat' ? 'hardhat' : 'plain';
}

/**
 * web3_clientVersion (and the metadata's clientVersion) under each rules. Hardhat's network
 * helpers and OpenZeppelin's upgrades plugins refuse a node whose version does not start with
 * the name of a development node they know, so Hardhat's clients get one that starts with
 * Hardhat's, as a browser's user agent starts with "Mozilla/5.0"; chain-sim and its version follow.
 * Tools that test for Ganache look for "Ganache" or "TestRPC" at the start.
 */
export function clientVersionOf(rules: ClientRules, version: string): string {
  const own = `chain-sim/v${version}/${process.platform}-${process.arch}/node${process.versions.node}`;
  if (rules === 'hardhat') return `HardhatNetwork/${own}`;
  if (rules === 'ganache') return `Ganache/v7.9.2/EthereumJS TestRPC/v7.9.2/ethereum-js/chain-sim/v${version}`;
  return own;
}

/** How eth_sendTransaction and eth_sendRawTransaction send: Hardhat's node answers once the block is in, a failure as an error. */
export function sendOptionsOf(rules: ClientRules): SendOptions {
  return rules === 'hardhat' ? AWAIT_OUTCOME : ANSWER_HASH;
}

const AWAIT_OUTCOME: SendOptions = { awaitOutcome: true };
const ANSWER_HASH: SendOptions = {};
