/**
 * Which client a request comes from, as far as its headers say. Hardhat's HTTP provider names
 * itself: Hardhat 2 sends `User-Agent: hardhat <version>`, Hardhat 3 `User-Agent: Hardhat <version>`.
 * Other clients (viem, ethers, web3.js, cast, curl, browsers) get no special treatment, so they
 * need no entry here. What a recognised client gets is decided by the RPC layer (clientRules.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { KnownClient } from '../rpc/clientRules.js';

const HARDHAT = /^hardhat /i;

export function clientOf(headers: IncomingHttpHeaders): KnownClient | undefined {
  const agent = headers['user-agent'];
  return agent !== undefined && HARDHAT.test(agent) ? 'hardhat' : undefined;
}
