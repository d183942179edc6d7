/**
 * Each client gets its own tool's rules (issue 33): over HTTP per request, over WebSocket per
 * connection, by the User-Agent Hardhat's HTTP provider sends (Hardhat 2: `hardhat <version>`,
 * Hardhat 3: `Hardhat <version>`). Requests of different clients are interleaved on one server,
 * so a rule that leaked from one request to the next would show.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { type ChainSimOptions, type ChainSimServer, createServer } from '../../src/index.js';
import { ADDRESSES, signed } from '../helpers/chain.js';
import { postJson, revertingInitCode } from '../helpers/rpc.js';

const HARDHAT_2 = 'hardhat 2.29.1';
const HARDHAT_3 = 'Hardhat 3.18.0';
const HARDHAT_VERSION = /^HardhatNetwork\/chain-sim\/v\d+\.\d+\.\d+\//;
const PLAIN_VERSION = /^chain-sim\/v\d+\.\d+\.\d+\//;
const FAILING = { from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' };

interface Answer {
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data?: { txHash?: string } };
}

function serverPerTest(): (options?: ChainSimOptions) => Promise<string> {
  let server: ChainSimServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (options = {}) => {
    server = await createServer({ quiet: true, hardfork: 'prague', ...options });
    return (await server.listen(0, '127.0.0.1')).url;
  };
}

/** One JSON-RPC call over HTTP, with this User-Agent (undefined: none at all). */
async function call(url: string, userAgent: string | undefined, method: string, params: unknown[] = []): Promise<Answer> {
  const response = await postJson(url, { jsonrpc: '2.0', id: 1, method, params }, userAgent === undefined ? {} : { 'user-agent': userAgent });
  expect(response.status).to.equal(200);
  return JSON.parse(response.body) as Answer;
}

async function receiptStatus(url: string, hash: string): Promise<string> {
  return ((await call(url, undefined, 'eth_getTransactionReceipt', [hash])).result as { status: string }).status;
}

/** What a failing eth_sendTransaction answered: the hash (checked mined with status 0) or Hardhat's error (its txHash checked the same). */
async function failedSend(url: string, userAgent: string | undefined, method = 'eth_sendTransaction'): Promise<'hash' | 'hardhat error'> {
  const answer = await call(url, userAgent, method, [FAILING]);
  if (answer.error) {
    expect(answer.error).to.deep.include({ code: -32603, message: 'Error: Transaction reverted without a reason string' });
    expect(await receiptStatus(url, answer.error.data!.txHash!)).to.equal('0x0');
    return 'hardhat error';
  }
  expect(answer.result).to.match(/^0x[0-9a-f]{64}$/);
  expect(await receiptStatus(url, answer.result as string)).to.equal('0x0');
  return 'hash';
}

async function clientVersion(url: string, userAgent: string | undefined): Promise<string> {
  const version = (await call(url, userAgent, 'web3_clientVersion')).result as string;
  expect(((await call(url, userAgent, 'hardhat_metadata')).result as { clientVersion: string }).clientVersion).to.equal(version);
  return version;
}

describe('Client rules over HTTP: each request by its User-Agent', function () {
  this.timeout(30_000);
  const start = serverPerTest();

  it("by default Hardhat 2's and Hardhat 3's HTTP providers get Hardhat's forms, other clients chain-sim's own", async () => {
    const url = await start();
    for (const agent of [HARDHAT_2, undefined, HARDHAT_3, 'curl/8.5.0', 'node', 'viem/2.57.20', 'hardhat-like/1.0']) {
      const hardhat = agent === HARDHAT_2 || agent === HARDHAT_3;
      expect(await clientVersion(url, agent), `${agent}`).to.match(hardhat ? HARDHAT_VERSION : PLAIN_VERSION);
      expect(await failedSend(url, agent), `${agent}`).to.equal(hardhat ? 'hardhat error' : 'hash');
    }
  });

  it('eth_sendRawTransaction likewise: Hardhat error for Hardhat, the hash for others', async () => {
    const url = await start();
    const raw = (nonce: number) => signed(1, { data: revertingInitCode('0x'), gasLimit: 100_000, nonce });
    const hardhat = await call(url, HARDHAT_2, 'eth_sendRawTransaction', [await raw(0)]);
    expect(hardhat.error?.message).to.equal('Error: Transaction reverted without a reason string');
    expect(await receiptStatus(url, hardhat.error!.data!.txHash!)).to.equal('0x0');
    const plain = await call(url, 'curl/8.5.0', 'eth_sendRawTransaction', [await raw(1)]);
    expect(plain.result).to.match(/^0x[0-9a-f]{64}$/);
    expect(await receiptStatus(url, plain.result as string)).to.equal('0x0');
  });

  it("the chain_ names answer the hash to Hardhat's clients too", async () => {
    const url = await start({ hardhatNode: true });
    for (const agent of [HARDHAT_2, HARDHAT_3, undefined]) {
      const answer = await call(url, agent, 'chain_sendTransaction', [FAILING]);
      expect(answer.result, JSON.stringify(answer)).to.match(/^0x[0-9a-f]{64}$/);
      expect(await receiptStatus(url, answer.result as string)).to.equal('0x0');
    }
  });

  it('--hardhat-node gives every client Hardhat forms; --no-hardhat-node none, not even Hardhat', async () => {
    const forced = await start({ hardhatNode: true });
    for (const agent of [undefined, 'curl/8.5.0', HARDHAT_2]) {
      expect(await clientVersion(forced, agent), `${agent}`).to.match(HARDHAT_VERSION);
      expect(await failedSend(forced, agent), `${agent}`).to.equal('hardhat error');
    }
  });

  it('--no-hardhat-node: Hardhat clients get chain-sim forms', async () => {
    const off = await start({ hardhatNode: false });
    for (const agent of [HARDHAT_2, HARDHAT_3, undefined]) {
      expect(await clientVersion(off, agent), `${agent}`).to.match(PLAIN_VERSION);
      expect(await failedSend(off, agent), `${agent}`).to.equal('hash');
    }
  });

  it("compat 'ganache' (chain-sim/ganache) gives every client Ganache's forms, Hardhat's too", async () => {
    const url = await start({ compat: 'ganache' });
    for (const agent of [HARDHAT_2, undefined]) {
      expect(await clientVersion(url, agent), `${agent}`).to.match(/^Ganache\/v7\.9\.2\/EthereumJS TestRPC\/v7\.9\.2\/ethereum-js\/chain-sim\/v/);
      expect(await failedSend(url, agent), `${agent}`).to.equal('hash');
    }
  });

  it('a batch is answered under the rules of the request that carried it', async () => {
    const url = await start();
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [FAILING] },
    ];
    const hardhat = JSON.parse((await postJson(url, batch, { 'user-agent': HARDHAT_2 })).body) as Answer[];
    expect(hardhat[0]!.result).to.match(HARDHAT_VERSION);
    expect(hardhat[1]!.error?.data?.txHash).to.match(/^0x[0-9a-f]{64}$/);
    const plain = JSON.parse((await postJson(url, batch)).body) as Answer[];
    expect(plain[0]!.result).to.match(PLAIN_VERSION);
    expect(plain[1]!.result).to.match(/^0x[0-9a-f]{64}$/);
  });
});

describe('Client rules over WebSocket: each connection by its upgrade request', function () {
  this.timeout(30_000);
  const start = serverPerTest();

  /** Opens a connection with this User-Agent and answers one call on it, then closes. */
  async function overWebSocket(url: string, userAgent: string | undefined, method: string, params: unknown[] = []): Promise<Answer> {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers: userAgent === undefined ? {} : { 'user-agent': userAgent } });
    try {
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const answer = new Promise<Answer>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()) as Answer)));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
      return await answer;
    } finally {
      ws.close();
    }
  }

  it("a connection opened by Hardhat gets Hardhat's forms; others chain-sim's own", async () => {
    const url = await start();
    expect((await overWebSocket(url, HARDHAT_2, 'web3_clientVersion')).result).to.match(HARDHAT_VERSION);
    expect((await overWebSocket(url, undefined, 'web3_clientVersion')).result).to.match(PLAIN_VERSION);
    const hardhat = await overWebSocket(url, HARDHAT_3, 'eth_sendTransaction', [FAILING]);
    expect(hardhat.error?.message).to.equal('Error: Transaction reverted without a reason string');
    const plain = await overWebSocket(url, 'ethers/6', 'eth_sendTransaction', [FAILING]);
    expect(plain.result).to.match(/^0x[0-9a-f]{64}$/);
  });
});
