// Drives chain-sim through @nomicfoundation/hardhat-network-helpers inside the Hardhat runtime,
// as a Hardhat project's tests do with `--network chainsim`, and prints what it saw as JSON.
const helpers = require('@nomicfoundation/hardhat-network-helpers');
const { network } = require('hardhat');

const rpc = (method, params = []) => network.provider.request({ method, params });
const latestBlock = () => rpc('eth_getBlockByNumber', ['latest', false]);
const OTHER = '0x00000000000000000000000000000000000000aa';

async function main() {
  const seen = {};
  const [owned] = await rpc('eth_accounts');

  const t0 = await helpers.time.latest();
  seen.increasedBy = (await helpers.time.increase(3600)) - t0;
  const before = await helpers.time.latestBlock();
  await helpers.mine(100, { interval: 15 });
  const last = await latestBlock();
  const previous = await rpc('eth_getBlockByNumber', [`0x${(Number(last.number) - 1).toString(16)}`, false]);
  seen.minedBlocks = (await helpers.time.latestBlock()) - before;
  seen.mineInterval = Number(last.timestamp) - Number(previous.timestamp);
  await helpers.mineUpTo(before + 150);
  seen.mineUpTo = (await helpers.time.latestBlock()) - before;

  const snapshot = await helpers.takeSnapshot();
  await helpers.setBalance(OTHER, 10n ** 20n);
  await helpers.impersonateAccount(OTHER);
  const hash = await rpc('eth_sendTransaction', [{ from: OTHER, to: owned, value: '0x1' }]);
  seen.impersonatedSender = (await rpc('eth_getTransactionReceipt', [hash])).from;
  await helpers.stopImpersonatingAccount(OTHER);
  await snapshot.restore();
  seen.balanceAfterRestore = await rpc('eth_getBalance', [OTHER, 'latest']);

  await helpers.setCode(OTHER, '0x4460005260206000f3'); // returns PREVRANDAO
  await helpers.setNonce(OTHER, 7);
  await helpers.setStorageAt(OTHER, 3, 42);
  seen.code = await rpc('eth_getCode', [OTHER, 'latest']);
  seen.nonce = await rpc('eth_getTransactionCount', [OTHER, 'latest']);
  seen.storage = await helpers.getStorageAt(OTHER, 3);

  await helpers.setPrevRandao(777);
  await helpers.setNextBlockBaseFeePerGas(12345);
  await helpers.setCoinbase(OTHER);
  await helpers.setBlockGasLimit(40_000_000);
  await helpers.mine();
  const block = await latestBlock();
  seen.block = { mixHash: block.mixHash, baseFeePerGas: block.baseFeePerGas, miner: block.miner, gasLimit: block.gasLimit };
  seen.prevRandaoCall = await rpc('eth_call', [{ to: OTHER }, 'latest']);

  let fixtureRuns = 0;
  async function fixture() {
    fixtureRuns++;
    await helpers.setBalance(OTHER, 5n);
    return { marker: 'deployed' };
  }
  const first = await helpers.loadFixture(fixture);
  await helpers.setBalance(OTHER, 6n);
  const second = await helpers.loadFixture(fixture);
  seen.fixture = { runs: fixtureRuns, same: first === second, balance: await rpc('eth_getBalance', [OTHER, 'latest']) };

  await rpc('evm_setAutomine', [false]);
  const pooled = await rpc('eth_sendTransaction', [{ from: owned, to: OTHER, value: '0x1' }]);
  seen.dropped = await helpers.dropTransaction(pooled);
  seen.poolAfterDrop = await rpc('txpool_status');
  await rpc('evm_setAutomine', [true]);

  await helpers.reset();
  seen.blockAfterReset = await helpers.time.latestBlock();
  console.log(JSON.stringify(seen));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
