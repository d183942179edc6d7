// hardhat-ethers and hardhat-chai-matchers on the built-in `hardhat` network: chain-sim in
// process, or Hardhat's own network when the harness sets HARDHAT_OWN_NETWORK=1. Every test
// must pass on both.
const { expect } = require('chai');
const { ethers, network } = require('hardhat');
const { loadFixture, takeSnapshot, time } = require('@nomicfoundation/hardhat-network-helpers');
const { anyValue } = require('@nomicfoundation/hardhat-chai-matchers/withArgs');
const { PANIC_CODES } = require('@nomicfoundation/hardhat-chai-matchers/panic');

const onChainSim = process.env.HARDHAT_OWN_NETWORK !== '1';
const ONE_ETHER = 10n ** 18n;

async function deployBoth() {
  const [owner, alice, bob] = await ethers.getSigners();
  const Token = await ethers.getContractFactory('Token');
  const token = await Token.deploy(1000n);
  const unlockTime = (await time.latest()) + 3600;
  const vault = await ethers.deployContract('Vault', [unlockTime], { value: ONE_ETHER });
  return { owner, alice, bob, token, vault, unlockTime };
}

/** The lines contracts print through console.log while `body` runs (Hardhat and chain-sim both print with console.log). */
async function printed(body) {
  const lines = [];
  const original = console.log;
  console.log = (...args) => lines.push(args.join(' '));
  try {
    await body();
  } finally {
    console.log = original;
  }
  return lines;
}

describe(`hardhat-ethers and the chai matchers (${onChainSim ? 'chain-sim' : "Hardhat's network"})`, () => {
  it('runs on the network this run selects, without loading EDR under chain-sim', async () => {
    const version = await network.provider.send('web3_clientVersion');
    expect(version).to.match(onChainSim ? /^HardhatNetwork\/chain-sim\// : /^HardhatNetwork\/2\./);
    const edrLoaded = Object.keys(require.cache).some((file) => file.includes('@nomicfoundation/edr'));
    expect(edrLoaded).to.equal(!onChainSim);
  });

  it("has Hardhat's default accounts, chain id and gas limit", async () => {
    const signers = await ethers.getSigners();
    expect(signers).to.have.length(20);
    expect(signers[0].address).to.equal('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(await ethers.provider.getBalance(signers[19])).to.equal(10_000n * ONE_ETHER);
    expect((await ethers.provider.getNetwork()).chainId).to.equal(31337n);
    await network.provider.send('evm_mine');
    const block = await ethers.provider.getBlock('latest');
    expect(block.gasLimit).to.equal(60_000_000n);
    expect(block.miner).to.equal('0xC014BA5EC014ba5ec014Ba5EC014ba5Ec014bA5E');
  });

  it('deploys with getContractFactory and deployContract, and attaches with getContractAt', async () => {
    const { owner, token, vault, unlockTime } = await loadFixture(deployBoth);
    const attached = await ethers.getContractAt('Token', await token.getAddress());
    expect(await attached.totalSupply()).to.equal(1000n);
    expect(await attached.balanceOf(owner)).to.equal(1000n);
    expect(await vault.unlockTime()).to.equal(BigInt(unlockTime));
    expect(await ethers.provider.getBalance(vault)).to.equal(ONE_ETHER);
  });

  it('revertedWith, revertedWithCustomError(...).withArgs, revertedWithoutReason, revertedWithPanic and reverted', async () => {
    const { owner, alice, token, vault, unlockTime } = await loadFixture(deployBoth);
    await expect(vault.withdraw()).to.be.revertedWithCustomError(vault, 'TooEarly').withArgs(anyValue, unlockTime);
    await time.increaseTo(unlockTime);
    await expect(vault.connect(alice).withdraw()).to.be.revertedWith('not the owner');
    await expect(vault.silent()).to.be.revertedWithoutReason();
    await expect(vault.entry(3)).to.be.revertedWithPanic(PANIC_CODES.ARRAY_ACCESS_OUT_OF_BOUNDS);
    await expect(vault.ratio(1, 0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO);
    await expect(token.transfer(alice, 5000)).to.be.revertedWithCustomError(token, 'InsufficientBalance').withArgs(owner.address, 1000, 5000);
    await expect(token.transfer(alice, 5000)).to.be.reverted;
    await expect(token.transfer(alice, 5)).not.to.be.reverted;
    await expect(ethers.deployContract('Vault', [0])).to.be.revertedWith('unlock time must be in the future');
  });

  it('changeEtherBalance(s), changeTokenBalance(s) and emit(...).withArgs', async () => {
    const { owner, alice, bob, token, vault, unlockTime } = await loadFixture(deployBoth);
    await expect(alice.sendTransaction({ to: vault, value: 5 })).to.changeEtherBalance(vault, 5);
    await expect(alice.sendTransaction({ to: vault, value: 5 }))
      .to.emit(vault, 'Deposited')
      .withArgs(alice.address, 5);
    await expect(vault.split(alice, bob, { value: 11 })).to.changeEtherBalances([alice, bob], [5, 6]);
    await expect(token.transfer(alice, 10)).to.changeTokenBalance(token, alice, 10);
    await expect(token.transfer(bob, 7)).to.changeTokenBalances(token, [owner, bob], [-7, 7]);
    await expect(token.transfer(bob, 7)).to.emit(token, 'Transfer').withArgs(owner.address, bob.address, 7);
    await time.increaseTo(unlockTime);
    const snapshot = await takeSnapshot();
    await expect(vault.withdraw()).to.changeEtherBalances([owner, vault], [ONE_ETHER + 10n, -(ONE_ETHER + 10n)]);
    await snapshot.restore();
    await expect(vault.withdraw())
      .to.emit(vault, 'Withdrawn')
      .withArgs(ONE_ETHER + 10n, anyValue);
  });

  it("fails a send as Hardhat's network does: mined, with the revert data, the hash and the contract", async () => {
    const { alice, vault, unlockTime } = await loadFixture(deployBoth);
    await time.increaseTo(unlockTime);
    const height = await ethers.provider.getBlockNumber();
    const error = await vault
      .connect(alice)
      .withdraw()
      .then(
        () => undefined,
        (e) => e,
      );
    expect(error.message).to.equal("VM Exception while processing transaction: reverted with reason string 'not the owner'");
    expect(error.data).to.equal(vault.interface.encodeErrorResult('Error(string)', ['not the owner']));
    expect(error.transactionHash).to.match(/^0x[0-9a-f]{64}$/);
    expect(error.stack).to.contain('Vault.withdraw (contracts/Vault.sol');
    expect(await ethers.provider.getBlockNumber()).to.equal(height + 1);
    expect((await ethers.provider.getTransactionReceipt(error.transactionHash)).status).to.equal(0);
    const call = await vault
      .connect(alice)
      .withdraw.staticCall()
      .then(
        () => undefined,
        (e) => e,
      );
    expect(call.message).to.contain("reverted with reason string 'not the owner'");
  });

  it('names the custom error and the Solidity line of a failure, as Hardhat does', async () => {
    const { vault, unlockTime } = await loadFixture(deployBoth);
    const error = await vault.withdraw().then(
      () => undefined,
      (e) => e,
    );
    expect(error.message).to.match(new RegExp(`^VM Exception while processing transaction: reverted with custom error 'TooEarly\\(\\d+, ${unlockTime}\\)'$`));
    expect(error.stack.split('\n')[1].trim()).to.equal('at Vault.withdraw (contracts/Vault.sol:28)');
  });

  it('prints console.log lines as Hardhat prints them (addresses in lowercase)', async () => {
    const { owner, vault, unlockTime } = await loadFixture(deployBoth);
    await time.increaseTo(unlockTime);
    const lines = await printed(async () => {
      await (await vault.withdraw()).wait();
    });
    expect(lines).to.include(`withdrawing ${ONE_ETHER} wei to ${owner.address.toLowerCase()}`);
  });
});
