import { expect } from 'chai';
import { Interface } from 'ethers';
import { loadFixture } from '../../src/mocha.js';
import type { ChainSimProvider } from '../../src/index.js';
import { ADDRESSES, type Rpc, artifact, deploy, newNode, nonceOf, send } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const token = new Interface(artifact('Token').abi);

async function storedNodes(provider: ChainSimProvider): Promise<number> {
  const { chain } = await provider.ready();
  await chain.settling; // a revert's work comes after its answer
  return chain.storedStateNodes;
}

async function tokenBalance(rpc: Rpc, address: string, who: string, block = 'latest'): Promise<bigint> {
  return BigInt(await rpc<string>('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [who]) }, block]));
}

/** A block's worth of changes: a token transfer (storage), a value transfer, setters. */
async function churn(rpc: Rpc, address: string, round: number): Promise<void> {
  await send(rpc, 0, { to: address, nonce: await nonceOf(rpc, ADDRESSES[0]!, 'latest'), data: token.encodeFunctionData('transfer', [TO, BigInt(round + 1)]) });
  await send(rpc, 1, { to: TO, nonce: await nonceOf(rpc, ADDRESSES[1]!, 'latest'), gasLimit: 21000, value: 5n });
  await rpc('hardhat_setStorageAt', [address, '0x9', `0x${(round + 7).toString(16).padStart(64, '0')}`]);
  await rpc('hardhat_setCode', [`0x${(0xc0de + round).toString(16).padStart(40, '0')}`, `0x60${(round & 0xff).toString(16).padStart(2, '0')}`]);
  await rpc('evm_mine');
}

describe('reverts free the state they abandon', () => {
  it('repeated chain_revert to one snapshot holds the node count where the snapshot left it', async () => {
    const { provider, rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    const id = await rpc<string>('chain_snapshot');
    const atSnapshot = await storedNodes(provider);
    for (let round = 0; round < 5; round++) {
      await churn(rpc, address, round);
      expect(await storedNodes(provider)).to.be.greaterThan(atSnapshot);
      await rpc('hardhat_setBalance', [TO, '0x1234']); // written without a block: freed too
      expect(await rpc('chain_revert', [id])).to.equal(true);
      expect(await storedNodes(provider), `after revert ${round}`).to.equal(atSnapshot);
      expect(await tokenBalance(rpc, address, ADDRESSES[0]!)).to.equal(1000n);
      expect(await rpc('eth_getStorageAt', [address, '0x9', 'latest'])).to.equal(`0x${'0'.repeat(64)}`);
    }
  });

  it('nested snapshots: the inner revert keeps the outer states readable, the outer one frees the rest', async () => {
    const { provider, rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    const outer = await rpc<string>('evm_snapshot');
    const atOuter = await storedNodes(provider);
    await churn(rpc, address, 0);
    const afterFirst = await rpc<string>('eth_blockNumber');
    const inner = await rpc<string>('evm_snapshot');
    const atInner = await storedNodes(provider);
    await churn(rpc, address, 1);
    expect(await rpc('evm_revert', [inner])).to.equal(true);
    expect(await storedNodes(provider)).to.equal(atInner);
    // The states between the two snapshots are still whole, historical reads included.
    expect(await tokenBalance(rpc, address, TO, afterFirst)).to.equal(1n);
    expect(await tokenBalance(rpc, address, TO, '0x2')).to.equal(1n);
    expect(await rpc('eth_getStorageAt', [address, '0x9', afterFirst])).to.equal(`0x${'7'.padStart(64, '0')}`);
    await churn(rpc, address, 2);
    expect(await tokenBalance(rpc, address, TO)).to.equal(4n);
    expect(await rpc('evm_revert', [outer])).to.equal(true);
    expect(await storedNodes(provider)).to.equal(atOuter);
    expect(await tokenBalance(rpc, address, TO)).to.equal(0n);
  });

  it('the same transactions re-executed after a revert rebuild the freed state, readable at every block', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    const address = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    const id = await rpc<string>('chain_snapshot');
    const roots: string[] = [];
    for (let pass = 0; pass < 2; pass++) {
      await churn(rpc, address, 0);
      await churn(rpc, address, 1);
      const head = await rpc<{ stateRoot: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
      roots.push(head.stateRoot);
      expect(await tokenBalance(rpc, address, TO, '0x3')).to.equal(1n);
      expect(await tokenBalance(rpc, address, TO, head.number)).to.equal(3n);
      if (pass === 0) await rpc('chain_revert', [id]);
    }
    expect(roots[1]).to.equal(roots[0]);
  });

  it('loadFixture under per-test revert: the fixture state outlives the revert and replays whole', async () => {
    const { provider, rpc } = newNode();
    const deployToken = async (): Promise<string> => deploy(rpc, 'Token', ['T', 'T', 500n]);
    for (let test = 0; test < 3; test++) {
      const isolation = await rpc<string>('evm_snapshot'); // what chain-sim/mocha does around each test
      const address = await loadFixture(deployToken, provider);
      expect(await tokenBalance(rpc, address, ADDRESSES[0]!)).to.equal(500n);
      expect(await tokenBalance(rpc, address, TO)).to.equal(0n);
      await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 9n]) });
      expect(await tokenBalance(rpc, address, TO)).to.equal(9n);
      expect(await rpc('evm_revert', [isolation])).to.equal(true);
    }
    // Each test's own transfer was freed; the fixture's deployment was kept once.
    const before = await storedNodes(provider);
    const isolation = await rpc<string>('evm_snapshot');
    const address = await loadFixture(deployToken, provider);
    await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 9n]) });
    await rpc('evm_revert', [isolation]);
    expect(await storedNodes(provider)).to.equal(before);
  });

  it('chain_reset frees what was written under open snapshots', async () => {
    const { provider, rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    await rpc('evm_snapshot');
    const atSnapshot = await storedNodes(provider);
    await churn(rpc, address, 0);
    await rpc('evm_snapshot');
    await churn(rpc, address, 1);
    await rpc('hardhat_reset');
    expect(await storedNodes(provider)).to.be.at.most(atSnapshot);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000, value: 1n });
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x1');
  });
});
