/** anvil_setChainId, eth_getAccountInfo, tenderly_setBalance / tenderly_addBalance through the provider. */
import { expect } from 'chai';
import { Wallet } from 'ethers';
import { ADDRESSES, KEYS, expectRpcError, newNode, send, signed, nodesPerTest } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const OTHER = '0x000000000000000000000000000000000000cafe';
/** Init code that returns CHAINID (CHAINID, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN): eth_call of it answers the id. */
const RETURNS_CHAIN_ID = '0x4660005260206000f3';

describe('anvil_setChainId, eth_getAccountInfo, tenderly balances', function () {
  this.timeout(30_000);
  const node = nodesPerTest();

  it('anvil_setChainId: eth_chainId, net_version, CHAINID and signatures use the new id; old blocks keep theirs; a reset restores it', async () => {
    const { rpc } = node();
    // A legacy EIP-155 transaction under 1337, before the change: its sender must still recover afterwards.
    const legacy = new Wallet(KEYS[0]);
    const before = await rpc<string>('eth_sendRawTransaction', [
      await legacy.signTransaction({ chainId: 1337, type: 0, to: TO, value: 1n, nonce: 0, gasLimit: 21_000, gasPrice: 10_000_000_000n }),
    ]);
    expect(await rpc('anvil_setChainId', ['0x539a'])).to.equal(null);
    expect(await rpc('eth_chainId')).to.equal('0x539a');
    expect(await rpc('net_version')).to.equal(String(0x539a));
    expect(BigInt(await rpc<string>('eth_call', [{ data: RETURNS_CHAIN_ID }]))).to.equal(0x539an);
    // Signed for the old id: refused; for the new one: mined. The node signs with the new id.
    await expectRpcError(rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 1 })]), -32000);
    const sent = await send(rpc, 0, { to: TO, nonce: 1, chainId: 0x539a });
    expect(sent.status).to.equal('0x1');
    const own = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[1], to: TO }]);
    expect((await rpc<{ chainId: string }>('eth_getTransactionByHash', [own])).chainId).to.equal('0x539a');
    // The old transaction still has its sender and its chain id, and replays (a trace) run as mined.
    const old = await rpc<{ from: string; chainId: string }>('eth_getTransactionByHash', [before]);
    expect([old.from, old.chainId]).to.deep.equal([ADDRESSES[0], '0x539']);
    const trace = await rpc<{ failed: boolean }>('debug_traceTransaction', [before, {}]);
    expect(trace.failed).to.equal(false);
    await expectRpcError(rpc('anvil_setChainId', [0]), -32602, /chain id must be positive/);
    await expectRpcError(rpc('anvil_setChainId', []), -32602);
    await rpc('anvil_reset', []);
    expect(await rpc('eth_chainId')).to.equal('0x539');
  });

  it("the provider emits EIP-1193's chainChanged on anvil_setChainId and on the reset that undoes it", async () => {
    const { rpc, provider } = node();
    const seen: string[] = [];
    provider.on('chainChanged', (chainId: string) => seen.push(chainId));
    await rpc('anvil_setChainId', [7]);
    await rpc('anvil_setChainId', [7]); // no change, no event
    await rpc('anvil_reset', []);
    await rpc('anvil_reset', []);
    expect(seen).to.deep.equal(['0x7', '0x539']);
  });

  it('net_version keeps an explicitly configured network id', async () => {
    const { rpc } = node({ networkId: 77 });
    await rpc('anvil_setChainId', [5]);
    expect([await rpc('eth_chainId'), await rpc('net_version')]).to.deep.equal(['0x5', '77']);
  });

  it("eth_getAccountInfo answers Anvil's { balance, nonce, code } at a block", async () => {
    const { rpc } = node();
    await rpc('hardhat_setCode', [TO, '0x6001']);
    await send(rpc, 0, { to: TO, value: 5n, nonce: 0 });
    expect(await rpc('eth_getAccountInfo', [TO])).to.deep.equal({ balance: '0x5', nonce: '0x0', code: '0x6001' });
    const sender = await rpc<{ balance: string; nonce: string; code: string }>('eth_getAccountInfo', [ADDRESSES[0], 'latest']);
    expect([sender.nonce, sender.code, sender.balance]).to.deep.equal(['0x1', '0x', await rpc('eth_getBalance', [ADDRESSES[0], 'latest'])]);
    expect(await rpc('eth_getAccountInfo', [TO, '0x0'])).to.deep.equal({ balance: '0x0', nonce: '0x0', code: '0x' });
    expect(Object.keys(await rpc<object>('eth_getAccountInfo', [OTHER, 'pending']))).to.deep.equal(['balance', 'nonce', 'code']);
    await expectRpcError(rpc('eth_getAccountInfo', ['0x12']), -32602, /invalid argument 0 \(address\)/);
    await expectRpcError(rpc('eth_getAccountInfo', [TO, '0x99']), -32000);
  });

  it('tenderly_setBalance / tenderly_addBalance: one address or a list, a hex amount; the answer is the new state root', async () => {
    const { rpc } = node();
    const root = await rpc<string>('tenderly_setBalance', [[TO, OTHER], '0x64']);
    expect(root).to.match(/^0x[0-9a-f]{64}$/);
    expect([await rpc('eth_getBalance', [TO, 'latest']), await rpc('eth_getBalance', [OTHER, 'latest'])]).to.deep.equal(['0x64', '0x64']);
    const added = await rpc<string>('tenderly_addBalance', [TO, '0x1']);
    expect(added).to.not.equal(root);
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x65');
    await rpc('tenderly_addBalance', [[OTHER], '0x0']);
    expect(await rpc('eth_getBalance', [OTHER, 'latest'])).to.equal('0x64');
    // The answer names the state the next (empty, post-merge: no reward) block records.
    await rpc('evm_mine');
    expect((await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false])).stateRoot).to.equal(added);
    // All or nothing: an overflow anywhere changes no balance.
    const max = `0x${'f'.repeat(64)}`;
    await rpc('tenderly_setBalance', [OTHER, max]);
    await expectRpcError(rpc('tenderly_addBalance', [[TO, OTHER], '0x1']), -32602, /balance of 0x0{36}cafe would exceed 2\^256-1/);
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x65');
    await expectRpcError(rpc('tenderly_setBalance', [[], '0x1']), -32602, /invalid argument 0 \(addresses\): expected at least one address/);
    await expectRpcError(rpc('tenderly_setBalance', [TO, '1']), -32602, /invalid argument 1 \(amount\)/);
  });
});

describe('anvil_impersonateSignature', function () {
  this.timeout(30_000);
  /** Runtime code: copy 128 bytes of calldata, STATICCALL ECRECOVER (0x01) with them, return its 32 bytes. */
  const CALLS_ECRECOVER = '0x6080600060003760206000608060006001' + '5afa5060206000f3';
  const CHECKER = '0x00000000000000000000000000000000000ec0de';
  const IMPERSONATED = '0x000000000000000000000000000000000000dead';
  const word = (hex: string) => hex.slice(2).padStart(64, '0');

  it('ECRECOVER answers the registered address for that signature, whatever the hash, called directly or from a contract, at any block', async () => {
    const { rpc, provider } = newNode();
    try {
      const wallet = new Wallet(KEYS[1]);
      const hash = `0x${'ab'.repeat(32)}`;
      const sig = wallet.signingKey.sign(hash);
      const input = (h: string) => `0x${word(h)}${word(`0x${sig.v.toString(16)}`)}${sig.r.slice(2)}${sig.s.slice(2)}`;
      const recovered = async (h: string, block = 'latest', to = '0x0000000000000000000000000000000000000001') =>
        `0x${(await rpc<string>('eth_call', [{ to, data: input(h) }, block])).slice(26)}`;
      await rpc('hardhat_setCode', [CHECKER, CALLS_ECRECOVER]);
      expect(await recovered(hash)).to.equal(ADDRESSES[1]);
      expect(await recovered(hash, 'latest', CHECKER)).to.equal(ADDRESSES[1]);

      // Anvil's form: r ++ s ++ v, 65 bytes.
      const signature = `${sig.r}${sig.s.slice(2)}${sig.v.toString(16)}`;
      expect(await rpc('anvil_impersonateSignature', [signature, IMPERSONATED])).to.equal(null);
      expect(await recovered(hash)).to.equal(IMPERSONATED);
      expect(await recovered(`0x${'cd'.repeat(32)}`, 'latest', CHECKER)).to.equal(IMPERSONATED);
      await rpc('evm_mine');
      expect(await recovered(hash, '0x0')).to.equal(IMPERSONATED); // a VM on an older state too
      // Other signatures recover as before.
      const other = wallet.signingKey.sign(`0x${'01'.repeat(32)}`);
      const otherInput = `0x${'01'.repeat(32)}${word(`0x${other.v.toString(16)}`)}${other.r.slice(2)}${other.s.slice(2)}`;
      expect(`0x${(await rpc<string>('eth_call', [{ to: CHECKER, data: otherInput }])).slice(26)}`).to.equal(ADDRESSES[1]);
      // Anvil's own form, one pair, is taken too.
      const third = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`;
      expect(await rpc('anvil_impersonateSignature', [[third, CHECKER]])).to.equal(null);
      const thirdInput = `0x${'00'.repeat(32)}${word('0x1b')}${'11'.repeat(32)}${'22'.repeat(32)}`;
      expect(`0x${(await rpc<string>('eth_call', [{ to: CHECKER, data: thirdInput }])).slice(26)}`).to.equal(CHECKER);
      await expectRpcError(rpc('anvil_impersonateSignature', [[third, CHECKER], CHECKER]), -32602, /invalid argument 1 \(address\): given twice/);
      await expectRpcError(rpc('anvil_impersonateSignature', [third]), -32602, /invalid argument 1 \(address\): missing/);
      await expectRpcError(rpc('anvil_impersonateSignature', [signature.slice(0, -2), IMPERSONATED]), -32602, /invalid argument 0 \(signature\)/);
      await expectRpcError(rpc('anvil_impersonateSignature', [signature, '0x12']), -32602, /invalid argument 1 \(address\)/);
    } finally {
      await provider.disconnect();
    }
  });
});
