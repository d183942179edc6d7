// Hardhat's network helpers on a forked chain-sim: reset(url, block) forks the upstream given in
// FORK_URL at FORK_BLOCK, a holder (HOLDER) is impersonated and moves tokens (TOKEN), snapshots
// restore, and reset() goes back to the node's start-up chain. Prints what it saw as JSON.
const helpers = require('@nomicfoundation/hardhat-network-helpers');
const { network } = require('hardhat');

const rpc = (method, params = []) => network.provider.request({ method, params });
const { FORK_URL, FORK_BLOCK, HOLDER, TOKEN } = process.env;
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const balanceOf = async (who) => BigInt(await rpc('eth_call', [{ to: TOKEN, data: `0x70a08231${who.slice(2).padStart(64, '0')}` }, 'latest'])).toString();

async function main() {
  const seen = {};
  await helpers.reset(FORK_URL, Number(FORK_BLOCK));
  seen.forkedAt = await helpers.time.latestBlock();
  seen.holderBefore = await balanceOf(HOLDER);
  const snapshot = await helpers.takeSnapshot();
  await helpers.impersonateAccount(HOLDER);
  await helpers.setBalance(HOLDER, 10n ** 18n);
  const data = `0xa9059cbb${RECIPIENT.slice(2).padStart(64, '0')}${(250).toString(16).padStart(64, '0')}`;
  const hash = await rpc('eth_sendTransaction', [{ from: HOLDER, to: TOKEN, data }]);
  seen.status = (await rpc('eth_getTransactionReceipt', [hash])).status;
  seen.recipient = await balanceOf(RECIPIENT);
  await snapshot.restore();
  seen.recipientAfterRestore = await balanceOf(RECIPIENT);
  await helpers.mine(5);
  seen.afterMine = await helpers.time.latestBlock();
  await helpers.reset();
  seen.afterReset = await helpers.time.latestBlock();
  seen.codeAfterReset = await rpc('eth_getCode', [TOKEN, 'latest']);
  console.log(JSON.stringify(seen));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
