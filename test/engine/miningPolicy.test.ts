import { expect } from 'chai';
import { ADDRESSES, newNode, signed } from '../helpers/chain.js';

const TO = `0x${'33'.repeat(20)}`;

describe('the mining policy (src/engine/mining/)', () => {
  for (const [name, options, kind] of [
    ['default', {}, 'auto'],
    ['--no-mining', { noMining: true }, 'manual'],
    ['--block-time', { blockTime: 3600 }, 'interval'],
    ['--mixed-mining', { blockTime: 3600, mixedMining: true }, 'mixed'],
  ] as const) {
    it(`is '${kind}' as configured (${name}) and back to it after changes and a reset`, async () => {
      const { provider, rpc } = newNode(options);
      const { chain } = await provider.ready();
      try {
        expect(chain.miningKind).to.equal(kind);
        await rpc('evm_setAutomine', [kind === 'manual' || kind === 'interval']);
        await rpc('evm_setIntervalMining', [kind === 'auto' ? 3_600_000 : 0]);
        expect(chain.miningKind).to.not.equal(kind);
        await rpc('hardhat_reset');
        expect(chain.miningKind).to.equal(kind);
        expect(chain.intervalMs).to.equal(kind === 'interval' || kind === 'mixed' ? 3_600_000 : undefined);
      } finally {
        await provider.disconnect();
      }
    });
  }

  it("Anvil's anvil_setIntervalMining is one mode: an interval turns automine off, 0 leaves none", async () => {
    const { provider, rpc } = newNode();
    const { chain } = await provider.ready();
    try {
      await rpc('anvil_setIntervalMining', [3600]);
      expect(chain.miningKind).to.equal('interval');
      await rpc('anvil_setIntervalMining', [0]);
      expect(chain.miningKind).to.equal('manual');
    } finally {
      await provider.disconnect();
    }
  });

  it("the pending block follows a state change that moves neither the head nor the pool (the state's version)", async () => {
    const { provider, rpc } = newNode();
    try {
      await rpc('evm_setAutomine', [false]);
      await rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, value: 1 })]);
      const before = await rpc<{ stateRoot: string; transactions: string[] }>('eth_getBlockByNumber', ['pending', false]);
      expect(before.transactions).to.have.length(1);
      // A setter changes the live state only: same head, same pool, same clock.
      await rpc('hardhat_setBalance', [ADDRESSES[1], '0x1234']);
      const after = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['pending', false]);
      expect(after.stateRoot).to.not.equal(before.stateRoot);
      expect(await rpc('eth_getBalance', [ADDRESSES[1], 'pending'])).to.equal('0x1234');
      // Unchanged state: the same block again.
      expect(await rpc('eth_getBlockByNumber', ['pending', false])).to.deep.equal(after);
    } finally {
      await provider.disconnect();
    }
  });
});
