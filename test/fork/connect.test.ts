import { expect } from 'chai';
import { connectFork } from '../../src/fork/session.js';
import { fakeUpstreamBlock } from '../helpers/fakeUpstreamBlock.js';
import { type FaultyUpstream, type JsonRpcCall, startFaultyUpstream } from '../helpers/faultyUpstream.js';

/** A healthy upstream at block 0x64 that knows blocks 0x00-0x64 (each with its own hash) and refuses anvil_nodeInfo. */
function answer(call: JsonRpcCall): unknown {
  const result = (() => {
    switch (call.method) {
      case 'eth_chainId':
        return '0x7a69';
      case 'eth_blockNumber':
        return '0x64';
      case 'eth_getBlockByNumber': {
        const number = BigInt(call.params[0] as string);
        if (number > 0x64n) return null;
        return { ...fakeUpstreamBlock({ hash: `0x${number.toString(16).padStart(64, '0')}` }), number: `0x${number.toString(16)}` };
      }
      default:
        return undefined;
    }
  })();
  return result === undefined
    ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `no ${call.method}` } }
    : { jsonrpc: '2.0', id: call.id, result };
}

describe('forking: connecting to the upstream', function () {
  this.timeout(30_000);
  let fake: FaultyUpstream;

  beforeEach(async () => {
    fake = await startFaultyUpstream({ badAddress: '0x00000000000000000000000000000000000000bd', answer });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('a block pinned by number: the chain id, the rules and its header in one HTTP request', async () => {
    const session = await connectFork({ url: fake.url, blockNumber: 0x20n, cacheDir: null });
    expect(fake.requests).to.equal(1);
    expect(session.number).to.equal(0x20n);
    expect(session.hashHex).to.equal(`0x${'20'.padStart(64, '0')}`);
    expect(session.chainId).to.equal(31337n);
  });

  it('the head, or a block counted back from it: the head first, then the block (two requests)', async () => {
    const head = await connectFork({ url: fake.url, cacheDir: null });
    expect(fake.requests).to.equal(2);
    expect(head.number).to.equal(0x64n);
    expect(head.hashHex).to.equal(`0x${'64'.padStart(64, '0')}`);
    const back = await connectFork({ url: fake.url, blockNumber: -4n, cacheDir: null });
    expect(fake.requests).to.equal(4);
    expect(back.number).to.equal(0x60n);
    expect(back.hashHex).to.equal(`0x${'60'.padStart(64, '0')}`);
  });

  it('a pinned block beyond the head fails the start-up naming the block', async () => {
    let message = '';
    await connectFork({ url: fake.url, blockNumber: 0x65n, cacheDir: null }).catch((error: Error) => (message = error.message));
    expect(message).to.match(/has no block 101 \(beyond its head, or pruned\)/);
    expect(fake.requests).to.equal(1);
  });
});
