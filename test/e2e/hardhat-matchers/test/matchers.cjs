// Hardhat's chai matchers, through hardhat-ethers, against the network the run selects
// (`--network localhost` or `--network chainsim`, both a running chain-sim).
const { expect } = require('chai');
const { ethers, network } = require('hardhat');
const { anyValue } = require('@nomicfoundation/hardhat-chai-matchers/withArgs');
const { PANIC_CODES } = require('@nomicfoundation/hardhat-chai-matchers/panic');

describe(`Hardhat's chai matchers on ${network.name}`, () => {
  let reverter;
  let owner;

  before(async () => {
    [owner] = await ethers.getSigners();
    reverter = await ethers.deployContract('Reverter');
    await reverter.waitForDeployment();
  });

  it('.reverted and revertedWithoutReason for revert() and require(false)', async () => {
    await expect(reverter.withoutReason()).to.be.reverted;
    await expect(reverter.withoutReason()).to.be.revertedWithoutReason();
    await expect(reverter.requireWithoutReason(false)).to.be.revertedWithoutReason();
    await expect(reverter.requireWithoutReason(true)).not.to.be.reverted;
  });

  it('revertedWith a reason string', async () => {
    await expect(reverter.withReason()).to.be.revertedWith('nope: not allowed');
    await expect(reverter.withReason()).to.be.reverted;
    await expect(reverter.viewReason()).to.be.revertedWith('view says no');
  });

  it('revertedWithCustomError, with its arguments', async () => {
    await expect(reverter.withCustomError()).to.be.revertedWithCustomError(reverter, 'Unauthorized');
    await expect(reverter.withCustomError()).to.be.revertedWithCustomError(reverter, 'Unauthorized').withArgs(owner.address, 42);
    await expect(reverter.withCustomError()).to.be.revertedWithCustomError(reverter, 'Unauthorized').withArgs(anyValue, 42);
  });

  it('revertedWithPanic, with and without a code', async () => {
    await expect(reverter.withPanic()).to.be.revertedWithPanic(PANIC_CODES.ARRAY_ACCESS_OUT_OF_BOUNDS);
    await expect(reverter.divide(1, 0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO);
    await expect(reverter.divide(1, 0)).to.be.revertedWithPanic();
  });

  it('a failed transaction is mined all the same; a good one is not reverted', async () => {
    const before = await reverter.counter();
    const height = await ethers.provider.getBlockNumber();
    await expect(reverter.withReason()).to.be.reverted;
    expect(await ethers.provider.getBlockNumber()).to.equal(network.name === 'localhost' ? height + 1 : height);
    expect(await reverter.counter()).to.equal(before);
    await expect(reverter.bump()).not.to.be.reverted;
    expect(await reverter.counter()).to.equal(before + 1n);
  });
});
