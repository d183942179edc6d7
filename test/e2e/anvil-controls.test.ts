/**
 * Differential: the same requests over HTTP to Anvil (from npm) and to a chain-sim server, and
 * the same observations from both: the CREATE2 deployer in genesis and a salted deployment
 * through it, eth_getAccountInfo, anvil_rollback, anvil_reorg, anvil_setChainId,
 * anvil_impersonateSignature, their errors.
 * Only what does not depend on wall-clock time or gas prices is compared.
 */
import { expect } from 'chai';
import { Interface, Wallet, getCreate2Address, keccak256 } from 'ethers';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { type RunningAnvil, call, findAnvil, minedReceipt, result, startAnvil } from '../helpers/anvil.js';
import { KEYS, artifact } from '../helpers/chain.js';

const DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const TO = '0x000000000000000000000000000000000000beef';
const SALT = `0x${'00'.repeat(31)}07`;
const token = new Interface(artifact('Token').abi);
const INIT_CODE = artifact('Token').bytecode + token.encodeDeploy(['Salted', 'SLT', 1000n]).slice(2);

/** What a node shows for one run of the scenario (each value a JSON-comparable observation). */
async function observe(url: string): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  const [from] = await result<string[]>(url, 'eth_accounts');
  const send = async (tx: Record<string, unknown>) => minedReceipt(url, await result<string>(url, 'eth_sendTransaction', [{ from, ...tx }]));
  const answer = async (method: string, params: unknown[]) => {
    const got = await call(url, method, params);
    return got.error ? { error: { code: got.error.code, message: got.error.message } } : { result: got.result };
  };

  seen.deployerCode = keccak256(await result<string>(url, 'eth_getCode', [DEPLOYER, 'latest']));
  seen.deployerInfo = await result(url, 'eth_getAccountInfo', [DEPLOYER, 'latest']);
  // forge's salted deployment: salt ++ init code to the deployer.
  const predicted = getCreate2Address(DEPLOYER, SALT, keccak256(INIT_CODE)).toLowerCase();
  seen.deployerAnswer = await result(url, 'eth_call', [{ from, to: DEPLOYER, data: SALT + INIT_CODE.slice(2) }, 'latest']);
  const deployed = await send({ to: DEPLOYER, data: SALT + INIT_CODE.slice(2), gas: '0x2dc6c0' });
  seen.deployStatus = deployed.status;
  seen.deployedCodeHash = keccak256(await result<string>(url, 'eth_getCode', [predicted, 'latest']));
  seen.predictedMatches = seen.deployerAnswer === predicted;

  // Blocks 2..5: a transfer of 1..4 wei each.
  for (let i = 1; i <= 4; i++) await send({ to: TO, value: `0x${i.toString(16)}` });
  seen.beforeRollback = await result(url, 'eth_blockNumber');
  seen.rollback = await answer('anvil_rollback', [2]);
  seen.afterRollback = [await result(url, 'eth_blockNumber'), await result(url, 'eth_getBalance', [TO, 'latest'])];
  seen.rollbackDefault = await answer('anvil_rollback', [null]); // Anvil 1.7.1 refuses [] (newer Anvil takes it, as chain-sim)
  seen.afterDefault = [await result(url, 'eth_blockNumber'), await result(url, 'eth_getBalance', [TO, 'latest'])];
  seen.tooDeep = await answer('anvil_rollback', [100]);

  // Head 2 → reorg 2: back to genesis (the salted deployment goes too), then two new blocks holding 16 and 32 wei (nonces 0 and 1).
  seen.reorg = await answer('anvil_reorg', [
    2,
    [
      [{ from, to: TO, value: '0x10' }, 0],
      [{ from, to: TO, value: '0x20' }, 1],
    ],
  ]);
  const blocks = [];
  for (const n of ['0x1', '0x2']) {
    const block = await result<{ transactions: Array<{ nonce: string; value: string }> }>(url, 'eth_getBlockByNumber', [n, true]);
    blocks.push(block.transactions.map((tx) => [tx.nonce, tx.value]));
  }
  seen.reorgBlocks = blocks;
  seen.afterReorg = [await result(url, 'eth_blockNumber'), await result(url, 'eth_getBalance', [TO, 'latest'])];
  seen.toInfo = await result(url, 'eth_getAccountInfo', [TO, 'latest']); // Anvil wants the block (null for latest); chain-sim takes it optional
  seen.reorgPastDepth = await answer('anvil_reorg', [1, [[{ from, to: TO, value: '0x1' }, 1]]]);
  seen.reorgTooDeep = await answer('anvil_reorg', [10, []]);

  seen.setChainId = await answer('anvil_setChainId', [0x1234]);
  seen.ids = [await result(url, 'eth_chainId'), await result(url, 'net_version')];
  // A transaction signed for the new id is taken, one for the old id refused. (Anvil 1.7.1 keeps signing eth_sendTransaction
  // with the old id and then refuses it: "transaction-provided chain ID (4660) does not match the signer's chain ID (31337)";
  // chain-sim signs with the new one, test/integration/anvilAccounts.test.ts.)
  const wallet = new Wallet(KEYS[0]);
  const nonce = Number(await result<string>(url, 'eth_getTransactionCount', [from, 'latest']));
  const rawFor = (chainId: number) =>
    wallet.signTransaction({ chainId, type: 2, to: TO, value: 1n, nonce, gasLimit: 21_000, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1n });
  seen.oldIdRefused = (await call(url, 'eth_sendRawTransaction', [await rawFor(31337)])).error !== undefined;
  const afterChange = await minedReceipt(url, await result<string>(url, 'eth_sendRawTransaction', [await rawFor(0x1234)]));
  seen.newIdTx = [afterChange.status, (await result<{ chainId: string }>(url, 'eth_getTransactionByHash', [afterChange.transactionHash])).chainId];

  // anvil_impersonateSignature: ECRECOVER (called directly) answers the registered address for that signature, any hash.
  const hash = `0x${'ab'.repeat(32)}`;
  const sig = wallet.signingKey.sign(hash);
  const ecrecoverInput = (h: string) => `${h}${sig.v.toString(16).padStart(64, '0')}${sig.r.slice(2)}${sig.s.slice(2)}`;
  const ecrecover = (h: string) => result(url, 'eth_call', [{ to: '0x0000000000000000000000000000000000000001', data: ecrecoverInput(h) }, 'latest']);
  seen.recoveredBefore = await ecrecover(hash);
  // Anvil's params are one pair: [[signature, address]].
  seen.impersonateSignature = await answer('anvil_impersonateSignature', [[`${sig.r}${sig.s.slice(2)}${sig.v.toString(16)}`, TO]]);
  seen.recoveredAfter = [await ecrecover(hash), await ecrecover(`0x${'cd'.repeat(32)}`)];
  return seen;
}

describe('Anvil and chain-sim side by side: genesis deployer, rollback, reorg, chain id', function () {
  this.timeout(120_000);
  let anvil: RunningAnvil | undefined;
  let server: ChainSimServer | undefined;
  let simUrl = '';

  before(async function () {
    const binary = findAnvil();
    if (!binary) this.skip();
    anvil = await startAnvil(binary!, ['--hardfork', 'prague']);
    server = await createServer({ quiet: true, hardfork: 'prague', chainId: 31337, hardhatNode: false });
    simUrl = (await server.listen(0, '127.0.0.1')).url;
  });
  after(async () => {
    anvil?.stop();
    await server?.close();
  });

  it('observes the same answers', async () => {
    const fromAnvil = await observe(anvil!.url);
    const fromSim = await observe(simUrl);
    expect(fromSim).to.deep.equal(fromAnvil);
    // And what the observations are (so that both agreeing on nothing cannot pass).
    expect(fromSim.predictedMatches).to.equal(true);
    expect(fromSim.deployStatus).to.equal('0x1');
    expect(fromSim.afterRollback).to.deep.equal(['0x3', '0x3']);
    expect(fromSim.afterReorg).to.deep.equal(['0x2', '0x30']);
    expect(fromSim.reorgBlocks).to.deep.equal([[['0x0', '0x10']], [['0x1', '0x20']]]);
    expect(fromSim.ids).to.deep.equal(['0x1234', String(0x1234)]);
    expect([fromSim.oldIdRefused, fromSim.newIdTx]).to.deep.equal([true, ['0x1', '0x1234']]);
    const word = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;
    expect(fromSim.recoveredBefore).to.equal(word(new Wallet(KEYS[0]).address.toLowerCase()));
    expect(fromSim.recoveredAfter).to.deep.equal([word(TO), word(TO)]);
  });

  it("tenderly_setBalance / tenderly_addBalance over HTTP (Tenderly's, not Anvil's: chain-sim alone)", async () => {
    const root = await result<string>(simUrl, 'tenderly_setBalance', [[TO], '0x100']);
    expect(root).to.match(/^0x[0-9a-f]{64}$/);
    expect(await result(simUrl, 'tenderly_addBalance', [TO, '0x1'])).to.match(/^0x[0-9a-f]{64}$/);
    expect(await result(simUrl, 'eth_getBalance', [TO, 'latest'])).to.equal('0x101');
  });
});
