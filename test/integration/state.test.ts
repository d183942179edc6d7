import { expect } from 'chai';
import { Interface } from 'ethers';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, send } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const tokenAbi = new Interface(artifact('Token').abi);

describe('state dump, load and reset', () => {
  it('dump → load into a fresh node reproduces the identical state root', async () => {
    const source = newNode();
    const token = await deploy(source.rpc, 'Token', ['T', 'T', 1000n]);
    await send(source.rpc, 0, { to: token, nonce: 1, data: tokenAbi.encodeFunctionData('transfer', [TO, 7n]) });
    await source.rpc('hardhat_setStorageAt', [TO, '0x5', `0x${'00'.repeat(31)}09`]);
    const dump = await source.rpc<{ alloc: Record<string, { storage?: Record<string, string>; code?: string }> }>('chain_dumpState');
    expect(dump.alloc[token]!.code).to.match(/^0x6080/);
    expect(Object.keys(dump.alloc[token]!.storage!).length).to.be.greaterThan(2);
    const sourceRoot = (await source.provider.ready()).chain.stateRoot();

    const target = newNode();
    expect(await target.rpc('chain_loadState', [dump])).to.equal(true);
    const targetRoot = (await target.provider.ready()).chain.stateRoot();
    expect(Buffer.from(await targetRoot).toString('hex')).to.equal(Buffer.from(await sourceRoot).toString('hex'));
    const balance = await target.rpc<string>('eth_call', [{ to: token, data: tokenAbi.encodeFunctionData('balanceOf', [TO]) }]);
    expect(BigInt(balance)).to.equal(7n);
    expect(await target.rpc('eth_blockNumber')).to.equal('0x0'); // loading mines nothing
  });

  it('anvil_dumpState gives hex of gzipped JSON that anvil_loadState takes back', async () => {
    const source = newNode();
    await source.rpc('hardhat_setBalance', [TO, '0x1234']);
    const hex = await source.rpc<string>('anvil_dumpState');
    const json = JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8'));
    expect(json.alloc[TO].balance).to.equal('0x1234');
    const target = newNode();
    expect(await target.rpc('anvil_loadState', [hex])).to.equal(true);
    expect(await target.rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x1234');
    await expectRpcError(target.rpc('anvil_loadState', ['0x1234']), -32602, /not gzipped or plain JSON/);
    await expectRpcError(target.rpc('chain_loadState', [{ alloc: { nope: {} } }]), -32602, /alloc\.nope: not a 20-byte address/);
  });

  it("anvil_loadState takes Anvil's own dump, and refuses a state without accounts", async () => {
    // Written by Anvil 1.7.1's anvil_dumpState after anvil_setBalance 0x2a, anvil_setCode 0x6001 and slot 1 = 0x2b on 0x…aa.
    const hex = readFileSync(new URL('../../../test/fixtures/anvil-1.7.1-dump.hex', import.meta.url), 'utf8').trim();
    const { rpc } = newNode();
    const who = '0x00000000000000000000000000000000000000aa';
    expect(await rpc('anvil_loadState', [hex])).to.equal(true);
    expect(await rpc('eth_getBalance', [who, 'latest'])).to.equal('0x2a');
    expect(await rpc('eth_getCode', [who, 'latest'])).to.equal('0x6001');
    expect(await rpc('eth_getStorageAt', [who, '0x1', 'latest'])).to.equal(`0x${'2b'.padStart(64, '0')}`);
    // Storage written as quantities, as Anvil's U256 keys may come.
    await rpc('anvil_loadState', [{ accounts: { [TO]: { nonce: 3, balance: '0x5', code: '0x', storage: { '0x2': '0x7' } } } }]);
    expect(await rpc('eth_getStorageAt', [TO, '0x2', 'latest'])).to.equal(`0x${'7'.padStart(64, '0')}`);
    expect(await rpc('eth_getTransactionCount', [TO, 'latest'])).to.equal('0x3');
    for (const state of [{ foo: 1 }, {}]) {
      await expectRpcError(rpc('anvil_loadState', [state]), -32602, /invalid argument 0 \(state\): a state needs "alloc" .* or "accounts"/);
    }
    await expectRpcError(rpc('anvil_loadState', [5]), -32602, /^invalid argument 0 \(state\): /);
  });

  it('reset goes back to genesis: blocks, balances, snapshots, mining mode', async () => {
    const { rpc } = newNode();
    const genesis = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000, value: 5n });
    const id = await rpc('evm_snapshot');
    await rpc('evm_setAutomine', [false]);
    expect(await rpc('hardhat_reset')).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x0');
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal('0x0');
    expect(await rpc('evm_revert', [id])).to.equal(false);
    expect(await rpc('eth_mining')).to.equal(true);
    expect((await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).hash).to.equal(genesis.hash);
    // Forking (docs/forking.md): an upstream that cannot be reached fails the reset and leaves the chain as it was.
    await expectRpcError(
      rpc('anvil_reset', [{ forking: { jsonRpcUrl: 'http://x', blockNumber: 5 } }]),
      -32000,
      /fork upstream http:\/\/x\/: eth_chainId .*failed: unreachable/,
    );
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect((await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).hash).to.equal(genesis.hash);
  });
});
