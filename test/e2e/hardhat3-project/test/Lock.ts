// Hardhat 3's Mocha tests, run with `hardhat test mocha --network chainsim` against `npx chain-sim`:
// hardhat-ethers deploys and calls, the chai matchers read reverts, the network helpers drive the node.
import { anyUint } from '@nomicfoundation/hardhat-ethers-chai-matchers/withArgs';
import { expect } from 'chai';
import { network } from 'hardhat';

// `network.create()` (Hardhat >= 3.4; `network.connect()` before) connects to the network given by --network.
const { ethers, networkHelpers } = await network.create();
const { time } = networkHelpers;
const LOCKED = ethers.parseEther('1');
const HOUR = 3600;

async function deployLock() {
  const unlockTime = (await time.latest()) + HOUR;
  const lock = await ethers.deployContract('Lock', [unlockTime], { value: LOCKED });
  return { lock, unlockTime };
}

describe('Hardhat 3 against chain-sim over HTTP', () => {
  describe('hardhat-ethers', () => {
    it('deploys a contract with value and calls it', async () => {
      const { lock, unlockTime } = await deployLock();
      expect(await lock.unlockTime()).to.equal(BigInt(unlockTime));
      expect(await ethers.provider.getBalance(lock)).to.equal(LOCKED);
      await (await lock.poke()).wait();
      await (await lock.poke()).wait();
      expect(await lock.pokes()).to.equal(2n);
    });
  });

  describe('chai matchers', () => {
    it('revertedWith reads a failed deployment', async () => {
      const past = (await time.latest()) - 1;
      await expect(ethers.deployContract('Lock', [past])).to.be.revertedWith('unlock time must be in the future');
    });

    it('revertedWithCustomError reads custom errors and their arguments', async () => {
      const { lock, unlockTime } = await deployLock();
      await expect(lock.withdraw()).to.be.revertedWithCustomError(lock, 'TooEarly').withArgs(unlockTime, anyUint);
      await time.increaseTo(unlockTime);
      const [, stranger] = await ethers.getSigners();
      await expect(lock.connect(stranger).withdraw()).to.be.revertedWithCustomError(lock, 'NotOwner').withArgs(stranger.address);
      await expect(lock.connect(stranger).withdraw()).to.revert(ethers);
    });

    it('emit and changeEtherBalances read a successful withdrawal', async () => {
      const { lock, unlockTime } = await deployLock();
      const [owner] = await ethers.getSigners();
      await time.increaseTo(unlockTime);
      await expect(lock.withdraw()).to.emit(lock, 'Withdrawal').withArgs(LOCKED, anyUint);
      const again = await deployLock();
      await time.increaseTo(again.unlockTime);
      await expect(again.lock.withdraw()).to.changeEtherBalances(ethers, [owner, again.lock], [LOCKED, -LOCKED]);
    });
  });

  describe('network helpers', () => {
    it('mine adds blocks, spaced by the interval asked for', async () => {
      const number = await ethers.provider.getBlockNumber();
      await networkHelpers.mine(100);
      expect(await ethers.provider.getBlockNumber()).to.equal(number + 100);
      await networkHelpers.mine(3, { interval: HOUR });
      expect(await ethers.provider.getBlockNumber()).to.equal(number + 103);
      const [second, third] = await Promise.all([ethers.provider.getBlock(number + 102), ethers.provider.getBlock(number + 103)]);
      expect(third!.timestamp - second!.timestamp).to.equal(HOUR);
    });

    it('time.increase moves the next block on by exactly that much', async () => {
      const timestamp = await time.latest();
      expect(await time.increase(HOUR)).to.equal(timestamp + HOUR);
      expect(await time.latest()).to.equal(timestamp + HOUR);
    });

    it('takeSnapshot().restore() undoes blocks and state', async () => {
      const { lock } = await deployLock();
      const number = await ethers.provider.getBlockNumber();
      const snapshot = await networkHelpers.takeSnapshot();
      await (await lock.poke()).wait();
      await networkHelpers.mine(5);
      expect(await lock.pokes()).to.equal(1n);
      await snapshot.restore();
      expect(await lock.pokes()).to.equal(0n);
      expect(await ethers.provider.getBlockNumber()).to.equal(number);
      // A snapshot restored can be restored again (the helper takes a fresh one each time).
      await (await lock.poke()).wait();
      await snapshot.restore();
      expect(await lock.pokes()).to.equal(0n);
    });

    it('setBalance and impersonateAccount let an unknown address deploy and withdraw', async () => {
      const address = ethers.Wallet.createRandom().address;
      expect(await ethers.provider.getBalance(address)).to.equal(0n);
      await networkHelpers.setBalance(address, ethers.parseEther('10'));
      expect(await ethers.provider.getBalance(address)).to.equal(ethers.parseEther('10'));

      const signer = await ethers.getSigner(address);
      await expect(signer.sendTransaction({ to: address, value: 1n })).to.be.rejected;
      await networkHelpers.impersonateAccount(address);
      const unlockTime = (await time.latest()) + HOUR;
      const lock = await ethers.deployContract('Lock', [unlockTime], { value: LOCKED, signer });
      expect(await lock.owner()).to.equal(address);
      await time.increaseTo(unlockTime);
      await expect(lock.connect(signer).withdraw()).to.changeEtherBalance(ethers, address, LOCKED);
      await networkHelpers.stopImpersonatingAccount(address);
      await expect(signer.sendTransaction({ to: address, value: 1n })).to.be.rejected;
    });

    it('loadFixture deploys once and gives each later call the state it left', async () => {
      const first = await networkHelpers.loadFixture(deployLock);
      await (await first.lock.poke()).wait();
      expect(await first.lock.pokes()).to.equal(1n);
      const second = await networkHelpers.loadFixture(deployLock);
      expect(await second.lock.getAddress()).to.equal(await first.lock.getAddress());
      expect(await second.lock.pokes()).to.equal(0n);
    });
  });
});
