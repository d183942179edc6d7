import { expect } from 'chai';
import { ADDRESSES, expectRpcError, newNode, signed } from '../helpers/chain.js';

/** Code that returns 42 from any call: PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURNS_42 = '0x602a60005260206000f3';
const DELEGATE = `0x${'d0'.repeat(20)}`;
const FORTY_TWO = `0x${'2a'.padStart(64, '0')}`;

describe('EIP-7702 authorizations in requests', () => {
  it('eth_sendTransaction carries an authorizationList (type 4), signing for an owned authority', async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setCode', [DELEGATE, RETURNS_42]);
    const hash = await rpc<string>('eth_sendTransaction', [
      { from: ADDRESSES[0], to: ADDRESSES[1], authorizationList: [{ chainId: '0x539', address: DELEGATE, nonce: '0x0', authority: ADDRESSES[1] }] },
    ]);
    const tx = await rpc<{ type: string; authorizationList: Array<{ address: string }> }>('eth_getTransactionByHash', [hash]);
    expect(tx.type).to.equal('0x4');
    expect(tx.authorizationList.map((a) => a.address)).to.deep.equal([DELEGATE]);
    expect(await rpc('eth_getCode', [ADDRESSES[1], 'latest'])).to.equal(`0xef0100${DELEGATE.slice(2)}`);
    expect(await rpc('eth_call', [{ to: ADDRESSES[1] }])).to.equal(FORTY_TWO);
  });

  it('eth_call and eth_estimateGas run with the authorization applied (eth_signAuthorization signs it)', async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setCode', [DELEGATE, RETURNS_42]);
    const auth = await rpc<Record<string, string>>('eth_signAuthorization', [{ chainId: '0x539', address: DELEGATE, nonce: '0x0' }, ADDRESSES[2]]);
    expect(Object.keys(auth)).to.deep.equal(['chainId', 'address', 'nonce', 'yParity', 'r', 's']);
    expect(await rpc('eth_call', [{ from: ADDRESSES[0], to: ADDRESSES[2] }])).to.equal('0x');
    expect(await rpc('eth_call', [{ from: ADDRESSES[0], to: ADDRESSES[2], authorizationList: [auth] }])).to.equal(FORTY_TWO);
    // 21000 + 25000 per authorization (EIP-7702's PER_EMPTY_ACCOUNT_COST) at least.
    expect(BigInt(await rpc<string>('eth_estimateGas', [{ from: ADDRESSES[0], to: ADDRESSES[2], authorizationList: [auth] }])) >= 46_000n).to.equal(true);
    // A call changes nothing: the account still has no code.
    expect(await rpc('eth_getCode', [ADDRESSES[2], 'latest'])).to.equal('0x');
  });

  it('refuses what it cannot honour by name: creations, gasPrice, unknown authorities, blob fields', async () => {
    const { rpc } = newNode();
    const auth = { chainId: '0x539', address: DELEGATE, nonce: '0x0' };
    await expectRpcError(
      rpc('eth_sendTransaction', [{ from: ADDRESSES[0], authorizationList: [{ ...auth, authority: ADDRESSES[1] }] }]),
      -32602,
      /must have a "to" address/,
    );
    await expectRpcError(
      rpc('eth_call', [{ to: ADDRESSES[1], gasPrice: '0x1', authorizationList: [{ ...auth, authority: ADDRESSES[1] }] }]),
      -32602,
      /not gasPrice/,
    );
    await expectRpcError(
      rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], authorizationList: [{ ...auth, authority: `0x${'ee'.repeat(20)}` }] }]),
      -32602,
      /unknown account/,
    );
    await expectRpcError(
      rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], authorizationList: [auth] }]),
      -32602,
      /needs its signature \(yParity, r, s\) or the authority/,
    );
    await expectRpcError(
      rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], blobVersionedHashes: [`0x01${'ab'.repeat(31)}`], maxFeePerBlobGas: '0x1' }]),
      -32602,
      /blob transactions .* eth_sendRawTransaction/,
    );
    await expectRpcError(rpc('eth_call', [{ blobVersionedHashes: [`0x01${'ab'.repeat(31)}`] }]), -32602, /blob transaction .* must have a "to" address/);
    await expectRpcError(
      rpc('eth_call', [{ to: ADDRESSES[1], gasPrice: '0x1', blobVersionedHashes: [`0x01${'ab'.repeat(31)}`] }]),
      -32602,
      /not supported by eth_call/,
    );
    // With fees of the EIP-1559 kind, a call runs as the blob transaction: BLOBHASH(0) answers the first hash.
    const blobHash = `0x01${'ab'.repeat(31)}`;
    await rpc('hardhat_setCode', [DELEGATE, '0x5f4960005260206000f3']);
    expect(await rpc('eth_call', [{ from: ADDRESSES[0], to: DELEGATE, blobVersionedHashes: [blobHash], maxFeePerBlobGas: '0x5' }])).to.equal(blobHash);
    await expectRpcError(rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], blobs: ['0x00'] }]), -32602, /blob sidecars are not taken/);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
  });
});

describe('Wallet-era and Anvil methods', () => {
  it('eth_requestAccounts, eth_networkId, anvil_addBalance, anvil_getGenesisTime, anvil_getIntervalMining, anvil_nodeInfo', async () => {
    const { rpc } = newNode({ chainId: 31337 });
    expect(await rpc('eth_requestAccounts')).to.deep.equal(await rpc('eth_accounts'));
    expect(await rpc('eth_networkId')).to.equal('31337');
    const who = `0x${'ab'.repeat(20)}`;
    await rpc('anvil_setBalance', [who, '0x10']);
    expect(await rpc('anvil_addBalance', [who, '0x5'])).to.equal(null);
    expect(await rpc('eth_getBalance', [who, 'latest'])).to.equal('0x15');
    const genesis = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['0x0', false]);
    expect(await rpc('anvil_getGenesisTime')).to.equal(Number(genesis.timestamp));
    expect(await rpc('anvil_getIntervalMining')).to.equal(null);
    await rpc('anvil_setIntervalMining', [3]);
    expect(await rpc('anvil_getIntervalMining')).to.equal(3);
    await rpc('anvil_setIntervalMining', [0]);
    const info = await rpc<{ currentBlockNumber: number; environment: { chainId: number }; transactionOrder: string }>('anvil_nodeInfo');
    expect(info).to.deep.include({ currentBlockNumber: 0, transactionOrder: 'fees' });
    expect(info.environment.chainId).to.equal(31337);
  });

  it('evm_mine_detailed / anvil_mine_detailed answer the mined blocks with their transactions; anvil_setNextBlockPrevRandao; hardhat_dumpState/loadState', async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    await rpc('anvil_setNextBlockPrevRandao', [`0x${'77'.repeat(32)}`]);
    const blocks = await rpc<Array<{ number: string; mixHash: string; transactions: Array<{ hash: string }> }>>('evm_mine_detailed');
    expect(blocks.map((b) => [b.number, b.mixHash, b.transactions.map((t) => t.hash)])).to.deep.equal([['0x1', `0x${'77'.repeat(32)}`, [hash]]]);
    expect((await rpc<unknown[]>('anvil_mine_detailed')).length).to.equal(1);
    const dump = await rpc<string>('hardhat_dumpState');
    const other = newNode();
    expect(await other.rpc('hardhat_loadState', [dump])).to.equal(true);
    expect(await other.rpc('eth_getBalance', [ADDRESSES[1], 'latest'])).to.equal(await rpc('eth_getBalance', [ADDRESSES[1], 'latest']));
  });

  it('eth_sendRawTransactionSync and eth_sendTransactionSync answer the receipt (EIP-7966), or code 4 with the hash after the timeout', async () => {
    const { rpc } = newNode();
    const receipt = await rpc<{ status: string; transactionHash: string }>('eth_sendRawTransactionSync', [
      await signed(1, { to: ADDRESSES[0], nonce: 0, gasLimit: 21000 }),
    ]);
    expect(receipt.status).to.equal('0x1');
    const fromOwned = await rpc<{ status: string; from: string }>('eth_sendTransactionSync', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    expect(fromOwned).to.include({ status: '0x1', from: ADDRESSES[0] });
    // A failed transaction is mined: its receipt (status 0) is the answer.
    const failed = await rpc<{ status: string }>('eth_sendTransactionSync', [{ from: ADDRESSES[0], data: '0x60006000fd', gas: '0x10000' }]);
    expect(failed.status).to.equal('0x0');
    await rpc('evm_setAutomine', [false]);
    const waiting = await expectRpcError(
      rpc('eth_sendRawTransactionSync', [await signed(1, { to: ADDRESSES[0], nonce: 1, gasLimit: 21000 }), 50]),
      4,
      /wasn't processed within 50ms/,
    );
    expect(waiting.data).to.match(/^0x[0-9a-f]{64}$/);
    await expectRpcError(
      rpc('eth_sendRawTransactionSync', [await signed(1, { to: ADDRESSES[0], nonce: 2, gasLimit: 21000 }), 10 ** 9]),
      -32602,
      /timeout\): at most 60000 ms/,
    );
    expect((await rpc<{ pending: string }>('txpool_status')).pending).to.equal('0x1');
  });
});

describe('eth_fillTransaction, as viem asks for it first', () => {
  it("viem's prepareTransactionRequest takes nonce, gas, fees and chain id from eth_fillTransaction", async () => {
    const { createWalletClient, custom } = await import('viem');
    const { provider } = newNode();
    const asked: string[] = [];
    const transport = custom({ request: (args: { method: string; params?: unknown }) => (asked.push(args.method), provider.request(args as never)) });
    const wallet = createWalletClient({
      transport,
      chain: { id: 1337, name: 'x', nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 }, rpcUrls: { default: { http: [] } } },
    });
    const prepared = await wallet.prepareTransactionRequest({ account: ADDRESSES[0] as `0x${string}`, to: ADDRESSES[1] as `0x${string}`, value: 1n });
    expect(asked).to.include('eth_fillTransaction');
    expect(prepared).to.include({ gas: 21000n, nonce: 0, type: 'eip1559' });
    const filled = (await provider.request({ method: 'eth_fillTransaction', params: [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }] })) as {
      raw: string;
      tx: Record<string, string>;
    };
    expect(filled.tx).to.include({ nonce: '0x0', gas: '0x5208', chainId: '0x539', type: '0x2', v: '0x0' });
    expect(filled.raw).to.match(/^0x02/);
  });
});

describe('anvil_dealERC20 / anvil_setERC20Balance and anvil_setERC20Allowance', () => {
  it("find the token's balance and allowance slots by trial and set them, as Anvil does", async () => {
    const { Interface } = await import('ethers');
    const { artifact, deploy } = await import('../helpers/chain.js');
    const { rpc } = newNode();
    const token = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const erc20 = new Interface(artifact('Token').abi);
    const read = async (fn: string, args: unknown[]) => BigInt(await rpc<string>('eth_call', [{ to: token, data: erc20.encodeFunctionData(fn, args) }]));
    expect(await rpc('anvil_dealERC20', [ADDRESSES[2], token, '0x1234'])).to.equal(null);
    expect(await read('balanceOf', [ADDRESSES[2]])).to.equal(0x1234n);
    await rpc('anvil_setERC20Balance', [ADDRESSES[1], token, '0x99']);
    expect(await read('balanceOf', [ADDRESSES[1]])).to.equal(0x99n);
    expect(await read('balanceOf', [ADDRESSES[2]])).to.equal(0x1234n);
    await rpc('anvil_setERC20Allowance', [ADDRESSES[1], ADDRESSES[2], token, '0x77']);
    expect(await read('allowance', [ADDRESSES[1], ADDRESSES[2]])).to.equal(0x77n);
    await expectRpcError(rpc('anvil_dealERC20', [ADDRESSES[1], ADDRESSES[0], '0x1']), -32000, /^Unable to set ERC20 balance, no slot found$/);
  });
});
