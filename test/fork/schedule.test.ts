import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createProvider } from '../../src/index.js';
import { fakeUpstreamBlock } from '../helpers/fakeUpstreamBlock.js';

/** A stand-in for a mainnet node at block 22,000,000 (a Prague block, 2025-06-15): its header and empty accounts. */
function mainnetLike(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as unknown;
      const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ id: unknown; method: string }>;
      const answers = calls.map(({ id, method }) => {
        const result = (
          {
            eth_chainId: '0x1',
            eth_blockNumber: '0x14fb180',
            eth_getBlockByNumber: fakeUpstreamBlock({
              number: '0x14fb180',
              hash: `0x${'c1'.repeat(32)}`,
              parentHash: `0x${'c0'.repeat(32)}`,
              timestamp: '0x684f0d80',
              gasLimit: '0x2255100',
              gasUsed: '0x1c9c380',
            }),
            eth_getBalance: '0x0',
            eth_getTransactionCount: '0x0',
            eth_getCode: '0x',
            eth_getStorageAt: `0x${'00'.repeat(32)}`,
          } as Record<string, unknown>
        )[method];
        return result === undefined ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'no such method' } } : { jsonrpc: '2.0', id, result };
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

describe('forking a known network: its fork schedule', function () {
  this.timeout(30_000);

  it('starts on the rules of the pinned block and local blocks follow the schedule after it', async () => {
    const upstream = await mainnetLike();
    const provider = createProvider({ quiet: true, forkCache: false, fork: upstream.url });
    try {
      const node = await provider.ready();
      expect(node.fork.session!.hardfork).to.equal('prague');
      expect(node.fork.session!.hardforkSource).to.match(/mainnet's schedule/);
      // The next block is mined now (years after the pinned block): past Osaka and the blob-parameter forks.
      const next = node.chain.nextBlockCommon().hardfork();
      expect(['osaka', 'bpo1', 'bpo2']).to.include(next);
      await provider.request({ method: 'evm_mine', params: [] });
      const block = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as {
        number: string;
        parentHash: string;
        requestsHash?: string;
      };
      expect(block.number).to.equal('0x14fb181');
      expect(block.parentHash).to.equal(`0x${'c1'.repeat(32)}`);
      expect(block.requestsHash).to.be.a('string');
      expect(node.chain.common.hardfork()).to.equal(next);
    } finally {
      await provider.disconnect();
      await upstream.close();
    }
  });
});
