// Prints, as JSON, what the `hardhat` network does with the networks.hardhat settings of this run
// (NETWORKS_HARDHAT): the harness runs it on chain-sim and on Hardhat's own network
// (HARDHAT_OWN_NETWORK=1) and compares. Only observations a setting decides are printed (not
// hashes or wall-clock times, which differ between any two runs).
const { network } = require('hardhat');

const rpc = (method, params = []) => network.provider.send(method, params);
const attempt = (promise) =>
  promise.then(
    (result) => ({ ok: result }),
    (error) => ({ error: error.message }),
  );
const INIT_24577_BYTES = '0x6160016000f3'; // returns 24,577 zero bytes: one over the EIP-170 limit
const INIT_REVERTING = '0x6460006000fd6000526005601bf3'; // deploys code that always reverts (PUSH1 0 PUSH1 0 REVERT)
const PUSH0_CALL = '0x5f5ff3'; // PUSH0 PUSH0 RETURN: valid from shanghai on
const blockAt = (tag) => rpc('eth_getBlockByNumber', [tag, false]);

async function mined(hash) {
  const automined = (await rpc('eth_getTransactionReceipt', [hash])) !== null;
  if (!automined) await rpc('evm_mine');
  return { automined, receipt: await rpc('eth_getTransactionReceipt', [hash]) };
}

async function main() {
  const seen = {};
  const accounts = await rpc('eth_accounts');
  seen.accounts = accounts;
  seen.balances = await Promise.all(accounts.map((account) => rpc('eth_getBalance', [account, 'latest'])));
  seen.chainId = await rpc('eth_chainId');
  seen.netVersion = await rpc('net_version');
  const first = await blockAt('latest');
  seen.head = { number: first.number, gasLimit: first.gasLimit, baseFeePerGas: first.baseFeePerGas };
  seen.blockFields = ['withdrawalsRoot', 'blobGasUsed', 'requestsHash'].filter((field) => field in first);
  if (process.env.PROBE_TIMESTAMP === '1') seen.headTimestamp = Number(first.timestamp);
  if (process.env.PROBE_ADDRESS) seen.probed = await rpc('eth_getBalance', [process.env.PROBE_ADDRESS, 'latest']);

  // A plain transfer: the sender (from), its gas and price (gas, gasPrice), automine or not, the coinbase.
  const transfer = await rpc('eth_sendTransaction', [{ to: accounts[accounts.length - 1], value: '0x1' }]);
  const { automined, receipt } = await mined(transfer);
  const tx = await rpc('eth_getTransactionByHash', [transfer]);
  seen.transfer = { automined, from: tx.from, gas: tx.gas, gasPrice: tx.type === '0x0' ? tx.gasPrice : undefined, type: tx.type };
  seen.coinbase = (await blockAt(receipt.blockNumber)).miner;
  // The hardfork, at a block of this chain's own (on a fork, a call at the pinned block runs under the forked chain's rules on Hardhat).
  seen.push0 = 'ok' in (await attempt(rpc('eth_call', [{ from: accounts[0], data: PUSH0_CALL }, receipt.blockNumber])));

  // Mempool order: two transactions in one block, the second paying more.
  if (!automined) {
    const low = await rpc('eth_sendTransaction', [{ from: accounts[0], to: accounts[1], value: '0x1', gasPrice: '0x3b9aca00' }]);
    const high = await rpc('eth_sendTransaction', [{ from: accounts[1], to: accounts[0], value: '0x1', gasPrice: '0x77359400' }]);
    await rpc('evm_mine');
    const block = await blockAt('latest');
    seen.mempoolOrder = block.transactions.map((hash) => (hash === low ? 'low' : hash === high ? 'high' : 'other'));
  }

  // Contract size limit.
  const big = await rpc('eth_sendTransaction', [{ from: accounts[0], data: INIT_24577_BYTES, gas: '0x800000' }]).then(
    async (hash) => (await mined(hash)).receipt,
    (error) => ({ error: error.message }),
  );
  seen.bigContract = big.error
    ? 'refused'
    : big.status === '0x1'
      ? `code of ${((await rpc('eth_getCode', [big.contractAddress, 'latest'])).length - 2) / 2} bytes`
      : 'failed';

  // Failed sends and calls (throwOnTransactionFailures, throwOnCallFailures).
  const deploy = await mined(await rpc('eth_sendTransaction', [{ from: accounts[0], data: INIT_REVERTING }]));
  const reverter = deploy.receipt.contractAddress;
  const send = await attempt(rpc('eth_sendTransaction', [{ from: accounts[0], to: reverter }]));
  seen.failedSend = send.error !== undefined ? `error: ${send.error}` : typeof send.ok === 'string' && send.ok.length === 66 ? 'hash' : send.ok;
  if (send.ok !== undefined) await mined(send.ok);
  const call = await attempt(rpc('eth_call', [{ from: accounts[0], to: reverter }, 'latest']));
  seen.failedCall = call.error !== undefined ? `error: ${call.error}` : call.ok;

  // Blocks with the same timestamp.
  const head = await blockAt('latest');
  const same = await attempt(rpc('evm_setNextBlockTimestamp', [Number(head.timestamp)]).then(() => rpc('evm_mine')));
  seen.sameTimestamp = 'ok' in same ? 'allowed' : 'refused';

  // Interval mining: blocks appear with no transaction.
  if (process.env.PROBE_INTERVAL === '1') {
    const before = Number(await rpc('eth_blockNumber'));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    seen.intervalMined = Number(await rpc('eth_blockNumber')) > before;
  }
  console.log(JSON.stringify(seen));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
