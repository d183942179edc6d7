/**
 * A fork's history lives in the engine's block store (engine/blocks/remoteHistory.ts, read from
 * the upstream by fork/history.ts): every method that reads blocks, transactions, receipts or
 * logs at or below the pinned block answers what the upstream answers, whichever method it is.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Wallet } from 'ethers';
import { type ChainSimProvider, createProvider, createServer } from '../../src/index.js';
import { CHAIN_ID, KEYS, WALLETS } from '../helpers/chain.js';
import { holder, token, upstreamForSuite } from './upstream.js';

const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;

type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

function forkNode(url: string, block: bigint): { provider: ChainSimProvider; rpc: Rpc } {
  const provider = createProvider({ quiet: true, forkCache: false, fork: url, forkBlockNumber: block.toString() });
  return { provider, rpc: async <T>(method: string, params: unknown[] = []) => (await provider.request({ method, params })) as T };
}

describe('forking: history at or below the pinned block is the upstream history', function () {
  this.timeout(60_000);
  const up = upstreamForSuite();

  it('blocks, transactions, receipts, headers and raw encodings read by any method are the upstream ones', async () => {
    const pinned = up().head - 1n;
    const { provider, rpc } = forkNode(up().url, pinned);
    try {
      const block = hex(up().holdersBlock);
      const { hash } = await up().rpc<{ hash: string }>('eth_getBlockByNumber', [block, false]);
      for (const [method, params] of [
        ['eth_getBlockByNumber', [block, true]],
        ['eth_getBlockByHash', [hash, true]],
        ['eth_getBlockReceipts', [block]],
        ['eth_getTransactionByHash', [up().transferTx]],
        ['eth_getTransactionReceipt', [up().transferTx]],
        ['eth_getTransactionByBlockNumberAndIndex', [block, '0x3']],
        ['eth_getBlockTransactionCountByHash', [hash]],
        ['eth_getHeaderByNumber', [block]],
        ['eth_getHeaderByHash', [hash]],
        ['debug_getRawBlock', [block]],
        ['debug_getRawHeader', [hash]],
        ['debug_getRawReceipts', [block]],
        ['eth_getRawTransactionByHash', [up().transferTx]],
        ['eth_getRawTransactionByBlockNumberAndIndex', [block, '0x3']],
        // The pinned block is the upstream's too, with its transaction and state root (the chain's copy stands for its state only).
        ['eth_getBlockByNumber', [hex(pinned), true]],
        ['debug_getRawBlock', [hex(pinned)]],
        ['eth_getBlockByNumber', ['earliest', false]],
      ] as Array<[string, unknown[]]>) {
        expect(await rpc(method, params), `${method} ${JSON.stringify(params)}`).to.deep.equal(await up().rpc(method, params));
      }
      // The upstream's block after the pinned one, and its transaction, are not this chain's.
      const after = await up().rpc<{ hash: string; transactions: string[] }>('eth_getBlockByNumber', [hex(up().head), false]);
      expect(await rpc('eth_getBlockByHash', [after.hash, false])).to.equal(null);
      expect(await rpc('eth_getTransactionReceipt', [after.transactions[0]])).to.equal(null);
      expect(await rpc('eth_getRawTransactionByHash', [after.transactions[0]])).to.equal('0x');
    } finally {
      await provider.disconnect();
    }
  });

  it('a log filter installed on a fork finds the upstream logs before the pinned block and the local ones after', async () => {
    const pinned = up().head - 1n;
    const { provider, rpc } = forkNode(up().url, pinned);
    try {
      await rpc('hardhat_impersonateAccount', [holder(3)]);
      await rpc('hardhat_setBalance', [holder(3), hex(10n ** 18n)]);
      const hash = await rpc<string>('eth_sendTransaction', [
        { from: holder(3), to: up().tokenAddress, data: token.encodeFunctionData('transfer', [holder(4), 3n]) },
      ]);
      const id = await rpc<string>('eth_newFilter', [{ address: up().tokenAddress, fromBlock: '0x0' }]);
      const logs = await rpc<Array<{ transactionHash: string }>>('eth_getFilterLogs', [id]);
      const upstreamLogs = await up().rpc<unknown[]>('eth_getLogs', [{ address: up().tokenAddress, fromBlock: '0x0', toBlock: hex(pinned) }]);
      expect(upstreamLogs.length).to.be.greaterThan(1);
      expect(logs.slice(0, -1)).to.deep.equal(upstreamLogs);
      expect(logs.at(-1)!.transactionHash).to.equal(hash);
    } finally {
      await provider.disconnect();
    }
  });

  it('an upstream that refuses eth_getBlockReceipts gives each transaction its own receipt', async () => {
    // A proxy to the upstream that answers eth_getBlockReceipts as an unknown method, as some upstreams do.
    let refused = 0;
    const proxy = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', async () => {
        const parsed = JSON.parse(body) as unknown;
        const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ id: unknown; method: string; params: unknown[] }>;
        const answers = await Promise.all(
          calls.map(async (call) => {
            if (call.method === 'eth_getBlockReceipts') {
              refused++;
              return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'the method eth_getBlockReceipts does not exist' } };
            }
            return { jsonrpc: '2.0', id: call.id, result: await up().rpc(call.method, call.params) };
          }),
        );
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { provider, rpc } = forkNode(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`, up().head);
    try {
      const block = hex(up().holdersBlock);
      const receipts = await rpc<Array<{ transactionHash: string }>>('eth_getBlockReceipts', [block]);
      expect(refused).to.equal(1);
      expect(receipts.length).to.be.greaterThan(60);
      expect(receipts).to.deep.equal(await up().rpc('eth_getBlockReceipts', [block]));
      expect(await rpc('debug_getRawReceipts', [block])).to.deep.equal(await up().rpc('debug_getRawReceipts', [block]));
    } finally {
      await provider.disconnect();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('reads every transaction type of an upstream block: legacy (EIP-155 and unprotected), 2930, 1559, 4844, 7702', async () => {
    // Each type signed by hand into one upstream block, then that block read through a fork of it.
    const upstream = await createServer({ quiet: true, hardfork: 'prague', chainId: CHAIN_ID, port: 0 });
    const { url } = await upstream.listen(0, '127.0.0.1');
    const up = <T = unknown>(method: string, params: unknown[] = []) => upstream.node.dispatcher.call(method, params) as Promise<T>;
    const to = '0x000000000000000000000000000000000000beef';
    const wallet = WALLETS[0]!;
    const fees = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n };
    const authorization = await new Wallet(KEYS[1]!).authorize({ address: to, nonce: 0, chainId: CHAIN_ID });
    const raws = [
      await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, to, gasLimit: 21000, gasPrice: 10n ** 10n }),
      await wallet.signTransaction({ type: 0, nonce: 1, to, gasLimit: 21000, gasPrice: 10n ** 10n }),
      await wallet.signTransaction({
        type: 1,
        chainId: CHAIN_ID,
        nonce: 2,
        to,
        gasLimit: 30000,
        gasPrice: 10n ** 10n,
        accessList: [{ address: to, storageKeys: [`0x${'00'.repeat(32)}`] }],
      }),
      await wallet.signTransaction({ type: 2, chainId: CHAIN_ID, nonce: 3, to, gasLimit: 21000, value: 7n, ...fees }),
      await wallet.signTransaction({
        type: 3,
        chainId: CHAIN_ID,
        nonce: 4,
        to,
        gasLimit: 21000,
        ...fees,
        maxFeePerBlobGas: 10n ** 10n,
        blobVersionedHashes: [`0x01${'ab'.repeat(31)}`],
      }),
      await wallet.signTransaction({ type: 4, chainId: CHAIN_ID, nonce: 5, to, gasLimit: 100000, ...fees, authorizationList: [authorization] }),
    ];
    await up('chain_setAutomine', [false]);
    for (const raw of raws) await up('eth_sendRawTransaction', [raw]);
    await up('chain_mine', ['0x1']);
    const { provider, rpc } = forkNode(url, 1n);
    try {
      const block = await up<{ transactions: Array<{ type: string }> }>('eth_getBlockByNumber', ['0x1', true]);
      expect(block.transactions.map((tx) => tx.type)).to.deep.equal(['0x0', '0x0', '0x1', '0x2', '0x3', '0x4']);
      for (const [method, params] of [
        ['eth_getBlockByNumber', ['0x1', true]],
        ['eth_getBlockReceipts', ['0x1']],
        ['debug_getRawBlock', ['0x1']],
        ['debug_getRawReceipts', ['0x1']],
      ] as Array<[string, unknown[]]>) {
        expect(await rpc(method, params), method).to.deep.equal(await up(method, params));
      }
    } finally {
      await provider.disconnect();
      await upstream.close();
    }
  });
});
