// Only with hardhat.chain-sim.config.ts: what Hardhat 3's simulated networks give on chain-sim in
// process, beyond what test/Lock.ts checks on any network.
import { expect } from 'chai';
import { network } from 'hardhat';

describe('Hardhat 3 simulated networks on chain-sim, in process', () => {
  it('answers as chain-sim under Hardhat’s name, with the network’s resolved settings', async () => {
    const { provider } = await network.create();
    expect(await provider.request({ method: 'web3_clientVersion' })).to.match(/^HardhatNetwork\/chain-sim\//);
    expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x7a69');
    const accounts = (await provider.request({ method: 'eth_accounts' })) as string[];
    expect(accounts).to.have.length(20);
    expect(accounts[0]).to.equal('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  });

  it('gives every connection a chain of its own', async () => {
    const first = await network.create();
    const second = await network.create();
    const [owner] = await first.ethers.getSigners();
    const lock = await first.ethers.deployContract('Lock', [(await first.networkHelpers.time.latest()) + 60]);
    const address = await lock.getAddress();
    expect(await first.ethers.provider.getCode(address)).to.not.equal('0x');
    expect(await second.ethers.provider.getCode(address)).to.equal('0x');
    await first.networkHelpers.mine(5);
    expect(await first.ethers.provider.getBlockNumber()).to.equal(6);
    expect(await second.ethers.provider.getBlockNumber()).to.equal(0);
    expect(await second.ethers.provider.getBalance(owner)).to.equal(10_000n * 10n ** 18n);
    await first.close();
    await expect(first.provider.request({ method: 'eth_blockNumber' })).to.be.rejectedWith(/closed/);
    expect(await second.provider.request({ method: 'eth_blockNumber' })).to.equal('0x0');
  });

  it('serves a network’s own config without Hardhat’s default implementation (no EDR provider started)', async () => {
    // chain-sim numbers the connections it creates itself from 1,000,000; Hardhat's own count from 0.
    const plain = await network.create();
    const named = await network.create('default');
    const cached = await network.getOrCreate();
    for (const connection of [plain, named, cached]) expect(connection.id).to.be.at.least(1_000_000);
    expect(named.id).to.not.equal(plain.id);
    expect(await named.provider.request({ method: 'web3_clientVersion' })).to.match(/^HardhatNetwork\/chain-sim\//);
    // An override is Hardhat's to resolve: its connection, then chain-sim's chain.
    const overridden = await network.create({ override: { chainId: 4242 } });
    expect(overridden.id).to.be.below(1_000_000);
    expect(await overridden.provider.request({ method: 'eth_chainId' })).to.equal('0x1092');
    for (const connection of [plain, named, overridden]) await connection.close();
  });

  it('applies network.create() overrides', async () => {
    const { provider } = await network.create({ override: { chainId: 4242, mining: { auto: false } } });
    expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x1092');
    expect(await provider.request({ method: 'hardhat_getAutomine' })).to.equal(false);
  });

  it('refuses by name what chain-sim cannot honour', async () => {
    await expect(network.create({ override: { minGasPrice: 1n } })).to.be.rejectedWith(/networks\.default\.minGasPrice: chain-sim has no minimum gas price/);
    await expect(network.create({ chainType: 'op' })).to.be.rejectedWith(/networks\.default\.chainType: chain-sim simulates Ethereum \(l1\) chains only/);
  });
});
