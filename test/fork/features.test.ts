/**
 * Issue 23's bullets that had no test of their own: --chain-id, --hardfork and --gas-limit
 * override what the upstream says; interval mining and eth_subscribe work on a fork.
 */
import { expect } from 'chai';
import { createProvider } from '../../src/index.js';
import { upstreamForSuite } from './upstream.js';

const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;

describe('forking: overrides, interval mining, subscriptions', function () {
  this.timeout(60_000);
  const up = upstreamForSuite();

  it('--chain-id, --hardfork and --gas-limit override the upstream (prague, 31337)', async () => {
    const provider = createProvider({ quiet: true, forkCache: false, fork: `${up().url}@${up().head}`, chainId: 7, hardfork: 'cancun', gasLimit: 12_345_678 });
    const rpc = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;
    try {
      expect(await rpc('eth_chainId')).to.equal('0x7');
      const pinned = await up().rpc<{ gasLimit: string; requestsHash?: string }>('eth_getBlockByNumber', [hex(up().head), false]);
      expect(pinned.requestsHash).to.be.a('string'); // the upstream's blocks are prague blocks
      await rpc('evm_mine');
      const local = await rpc<{ number: string; gasLimit: string; requestsHash?: string; parentBeaconBlockRoot?: string }>('eth_getBlockByNumber', [
        'latest',
        false,
      ]);
      expect(BigInt(local.number)).to.equal(up().head + 1n);
      expect(local.requestsHash).to.equal(undefined); // cancun: no EIP-7685 requests
      expect(local.parentBeaconBlockRoot).to.be.a('string');
      expect(local.gasLimit).to.equal(hex(12_345_678));
      expect(local.gasLimit).to.not.equal(pinned.gasLimit);
      const metadata = await rpc<{ chainId: number; forkedNetwork: { chainId: number } }>('hardhat_metadata');
      expect(metadata.chainId).to.equal(7);
      expect(metadata.forkedNetwork.chainId).to.equal(31337);
    } finally {
      await provider.disconnect();
    }
  });

  it('interval mining builds on the pinned block, and newHeads subscribers hear each block', async () => {
    const provider = createProvider({ quiet: true, forkCache: false, fork: `${up().url}@${up().head}` });
    const rpc = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;
    try {
      const pinnedHash = (await rpc<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).hash;
      const heads: Array<{ number: string; parentHash: string }> = [];
      const id = await rpc<string>('eth_subscribe', ['newHeads']);
      provider.on('message', (message: { type: string; data: { subscription: string; result: { number: string; parentHash: string } } }) => {
        if (message.type === 'eth_subscription' && message.data.subscription === id) heads.push(message.data.result);
      });
      await rpc('evm_setIntervalMining', [100]);
      const deadline = Date.now() + 20_000;
      while (heads.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await rpc('evm_setIntervalMining', [0]);
      expect(heads.length).to.be.at.least(2);
      expect(BigInt(heads[0]!.number)).to.equal(up().head + 1n);
      expect(heads[0]!.parentHash).to.equal(pinnedHash);
      expect(BigInt(heads[1]!.number)).to.equal(up().head + 2n);
      expect(await rpc('eth_unsubscribe', [id])).to.equal(true);
    } finally {
      await provider.disconnect();
    }
  });
});
