// hardhat-network-helpers and the provider itself on the built-in `hardhat` network (chain-sim,
// or Hardhat's own with HARDHAT_OWN_NETWORK=1): every test passes on both.
const { expect } = require('chai');
const hre = require('hardhat');
const helpers = require('@nomicfoundation/hardhat-network-helpers');

const { ethers, network } = hre;
const { time } = helpers;
const OTHER = '0x00000000000000000000000000000000000000aa';

let fixtureRuns = 0;
async function deployToken() {
  fixtureRuns += 1;
  const token = await ethers.deployContract('Token', [500n]);
  return { token };
}

describe('hardhat-network-helpers and hre.network.provider', () => {
  it('time: latest, increase, increaseTo, setNextBlockTimestamp', async () => {
    const start = await time.latest();
    expect(await time.increase(3600)).to.equal(start + 3600);
    await time.increaseTo(start + 7200);
    expect(await time.latest()).to.equal(start + 7200);
    await time.setNextBlockTimestamp(start + 9000);
    await helpers.mine();
    expect(await time.latest()).to.equal(start + 9000);
  });

  it('mine and mineUpTo, with an interval', async () => {
    const before = await time.latestBlock();
    const t = await time.latest();
    await helpers.mine(100, { interval: 15 });
    expect(await time.latestBlock()).to.equal(before + 100);
    // The first block follows the last one by a second, the other 99 by the interval (Hardhat's hardhat_mine).
    expect(await time.latest()).to.equal(t + 1 + 99 * 15);
    await helpers.mineUpTo(before + 150);
    expect(await time.latestBlock()).to.equal(before + 150);
  });

  it('impersonateAccount, setBalance and stopImpersonatingAccount', async () => {
    const [owner] = await ethers.getSigners();
    await helpers.setBalance(OTHER, 10n ** 20n);
    expect(await ethers.provider.getBalance(OTHER)).to.equal(10n ** 20n);
    await helpers.impersonateAccount(OTHER);
    const impersonated = await ethers.getSigner(OTHER);
    const receipt = await (await impersonated.sendTransaction({ to: owner.address, value: 1 })).wait();
    expect(receipt.from.toLowerCase()).to.equal(OTHER);
    await helpers.stopImpersonatingAccount(OTHER);
    await expect(network.provider.send('eth_sendTransaction', [{ from: OTHER, to: owner.address, value: '0x1' }])).to.be.rejected;
  });

  it('setCode, setStorageAt, getStorageAt and setNonce', async () => {
    await helpers.setCode(OTHER, '0x602a60005260206000f3'); // returns 42
    expect(await ethers.provider.call({ to: OTHER })).to.equal(ethers.toBeHex(42, 32));
    await helpers.setStorageAt(OTHER, 3, 7);
    expect(await helpers.getStorageAt(OTHER, 3)).to.equal(ethers.toBeHex(7, 32));
    await helpers.setNonce(OTHER, 9);
    expect(await ethers.provider.getTransactionCount(OTHER)).to.equal(9);
  });

  it('takeSnapshot and restore', async () => {
    const snapshot = await helpers.takeSnapshot();
    const height = await time.latestBlock();
    await helpers.setBalance(OTHER, 12345n);
    await helpers.mine(3);
    await snapshot.restore();
    expect(await time.latestBlock()).to.equal(height);
    expect(await ethers.provider.getBalance(OTHER)).to.not.equal(12345n);
  });

  it('loadFixture runs the fixture once and puts its chain back afterwards', async () => {
    const { token } = await helpers.loadFixture(deployToken);
    const [, alice] = await ethers.getSigners();
    await token.transfer(alice, 5);
    const again = await helpers.loadFixture(deployToken);
    expect(await again.token.getAddress()).to.equal(await token.getAddress());
    expect(await again.token.balanceOf(alice)).to.equal(0n);
    expect(fixtureRuns).to.equal(1);
  });

  it('hre.network.provider: send, request and sendAsync', async () => {
    const [owner] = await ethers.getSigners();
    expect(await network.provider.send('eth_chainId')).to.equal('0x7a69');
    expect(await network.provider.request({ method: 'eth_getBalance', params: [owner.address, 'latest'] })).to.match(/^0x[0-9a-f]+$/);
    const answer = await new Promise((resolve, reject) =>
      network.provider.sendAsync({ jsonrpc: '2.0', id: 7, method: 'net_version', params: [] }, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
    expect(answer).to.deep.include({ id: 7, result: '31337' });
    const unknown = await network.provider.send('chain_noSuchMethod').then(
      () => undefined,
      (e) => e,
    );
    expect(unknown.code).to.equal(-32004);
    expect(unknown.message).to.equal('Method chain_noSuchMethod is not supported');
  });

  it('reset: to a fork of another node at a block, and back to a local chain', async function () {
    const upstream = process.env.CHAIN_SIM_UPSTREAM;
    if (upstream === undefined) this.skip();
    const [owner] = await ethers.getSigners();
    await helpers.reset(upstream, 1);
    expect(await ethers.provider.getBlockNumber()).to.equal(1);
    expect(await ethers.provider.getBalance(OTHER)).to.equal(0x1234n);
    // The network's accounts are funded on the fork too.
    expect(await ethers.provider.getBalance(owner)).to.equal(10_000n * 10n ** 18n);
    await helpers.reset();
    expect(await ethers.provider.getBlockNumber()).to.equal(0);
    expect(await ethers.provider.getBalance(OTHER)).to.equal(0n);
  });
});
