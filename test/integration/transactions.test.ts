import { expect } from 'chai';
import { Interface, Transaction, Wallet, keccak256 } from 'ethers';
import { ADDRESSES, CHAIN_ID, KEYS, WALLETS, artifact, deploy, expectRpcError, newNode, nonceOf, send, signed } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';

describe('transactions through the provider', () => {
  it('mines each accepted transaction in its own block before the send returns', async () => {
    const { rpc } = newNode();
    const receipt = await send(rpc, 0, { to: TO, value: 5n, nonce: 0, gasLimit: 21000 });
    expect(receipt.status).to.equal('0x1');
    expect(receipt.blockNumber).to.equal('0x1');
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x5');
    const second = await send(rpc, 0, { to: TO, value: 5n, nonce: 1, gasLimit: 21000 });
    expect(second.blockNumber).to.equal('0x2');
  });

  it('gives blocks strictly increasing timestamps even within one second', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    for (let nonce = 0; nonce < 3; nonce++) await send(rpc, 0, { to: TO, nonce, gasLimit: 21000 });
    const stamps: bigint[] = [];
    for (let n = 0; n <= 3; n++) {
      const block = await rpc<{ timestamp: string }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
      stamps.push(BigInt(block.timestamp));
    }
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!).to.equal(true);
  });

  it('accepts legacy (EIP-155 and unprotected), 2930, 1559, 4844 and 7702 transactions', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const wallet = WALLETS[0]!;
    const legacy = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, to: TO, gasLimit: 21000, gasPrice: 10n ** 10n });
    const unprotected = await wallet.signTransaction({ type: 0, nonce: 1, to: TO, gasLimit: 21000, gasPrice: 10n ** 10n });
    const accessList = await wallet.signTransaction({
      type: 1,
      chainId: CHAIN_ID,
      nonce: 2,
      to: TO,
      gasLimit: 30000,
      gasPrice: 10n ** 10n,
      accessList: [{ address: TO, storageKeys: [`0x${'00'.repeat(32)}`] }],
    });
    const feeMarket = await signed(0, { nonce: 3, to: TO, gasLimit: 21000 });
    const blob = await wallet.signTransaction({
      type: 3,
      chainId: CHAIN_ID,
      nonce: 4,
      to: TO,
      gasLimit: 21000,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
      maxFeePerBlobGas: 10n ** 10n,
      blobVersionedHashes: [`0x01${'ab'.repeat(31)}`],
    });
    const authority = new Wallet(KEYS[1]!);
    const authorization = await authority.authorize({ address: TO, nonce: 0, chainId: CHAIN_ID });
    const setCode = await wallet.signTransaction({
      type: 4,
      chainId: CHAIN_ID,
      nonce: 5,
      to: TO,
      gasLimit: 100000,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
      authorizationList: [authorization],
    });
    const types = ['0x0', '0x0', '0x1', '0x2', '0x3', '0x4'];
    const raws = [legacy, unprotected, accessList, feeMarket, blob, setCode];
    for (let i = 0; i < raws.length; i++) {
      const hash = await rpc<string>('eth_sendRawTransaction', [raws[i]]);
      expect(hash).to.equal(keccak256(raws[i]!));
      const receipt = await rpc<Record<string, string>>('eth_getTransactionReceipt', [hash]);
      expect(receipt.status, `tx type ${types[i]}`).to.equal('0x1');
      expect(receipt.type).to.equal(types[i]);
      const tx = await rpc<Record<string, unknown>>('eth_getTransactionByHash', [hash]);
      expect(tx.from).to.equal(ADDRESSES[0]);
      expect(tx.type).to.equal(types[i]);
    }
    const blobReceipt = await rpc<Record<string, string>>('eth_getTransactionReceipt', [keccak256(blob)]);
    expect(blobReceipt.blobGasUsed).to.equal('0x20000');
    const setCodeTx = await rpc<{ authorizationList: unknown[] }>('eth_getTransactionByHash', [keccak256(setCode)]);
    expect(setCodeTx.authorizationList).to.have.length(1);
    // The authority now delegates to TO (EIP-7702 designator 0xef0100 ‖ address).
    expect(await rpc('eth_getCode', [authority.address, 'latest'])).to.equal(`0xef0100${TO.slice(2)}`);
  });

  it('queues a future nonce and mines it once the gap closes', async () => {
    const { rpc } = newNode();
    const later = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 1, gasLimit: 21000 })]);
    expect(await rpc('eth_getTransactionReceipt', [later])).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    const pending = await rpc<{ blockNumber: unknown }>('eth_getTransactionByHash', [later]);
    expect(pending.blockNumber).to.equal(null);
    await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000 });
    const receipt = await rpc<{ blockNumber: string }>('eth_getTransactionReceipt', [later]);
    expect(receipt.blockNumber).to.equal('0x2');
    expect(await nonceOf(rpc, ADDRESSES[0]!, 'latest')).to.equal(2);
  });

  describe('rejects invalid transactions with go-ethereum wording and changes nothing', () => {
    const cases: Array<[string, () => Promise<string>, RegExp]> = [
      ['nonce too low', async () => signed(0, { to: TO, nonce: 0, gasLimit: 21000, value: 1n }), /^nonce too low: address 0xf39f.*, tx: 0 state: 1$/],
      ['nonce too high', async () => signed(0, { to: TO, nonce: 5000, gasLimit: 21000 }), /^nonce too high/],
      [
        'insufficient funds',
        async () => signed(0, { to: TO, nonce: 1, gasLimit: 21000, value: 10n ** 30n }),
        /^insufficient funds for gas \* price \+ value: address 0xf39f.* have \d+ want \d+$/,
      ],
      ['intrinsic gas too low', async () => signed(0, { to: TO, nonce: 1, gasLimit: 20000 }), /^intrinsic gas too low: gas 20000, minimum needed 21000$/],
      ['exceeds block gas limit', async () => signed(0, { to: TO, nonce: 1, gasLimit: 31_000_000 }), /^exceeds block gas limit$/],
      [
        'fee cap below base fee',
        async () => signed(0, { to: TO, nonce: 1, gasLimit: 21000, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
        /^max fee per gas less than block base fee: address 0xf39f.*, maxFeePerGas: 1, baseFee: \d+$/,
      ],
      [
        'wrong chain id',
        async () => WALLETS[0]!.signTransaction({ type: 2, chainId: 1, nonce: 1, to: TO, gasLimit: 21000, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n }),
        /^invalid chain id for signer$/,
      ],
    ];
    for (const [name, build, message] of cases) {
      it(name, async () => {
        const { rpc } = newNode();
        await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000 });
        const before = await rpc<Record<string, string>>('eth_getBlockByNumber', ['latest', false]);
        await expectRpcError(rpc('eth_sendRawTransaction', [await build()]), -32000, message);
        const after = await rpc<Record<string, string>>('eth_getBlockByNumber', ['latest', false]);
        expect(after.hash).to.equal(before.hash);
        expect(await nonceOf(rpc, ADDRESSES[0]!)).to.equal(1);
      });
    }

    it('a transaction type the hardfork does not have', async () => {
      const { rpc } = newNode({ hardfork: 'berlin' });
      await expectRpcError(rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, gasLimit: 21000 })]), -32000, /^transaction type not supported$/);
    });

    it('a corrupted signature', async () => {
      const { rpc } = newNode();
      const raw = await signed(0, { to: TO, nonce: 0, gasLimit: 21000 });
      const corrupted = `${raw.slice(0, -64)}${'ff'.repeat(32)}`; // s above the curve order
      const error = await expectRpcError(rpc('eth_sendRawTransaction', [corrupted]), -32000);
      expect(error.message).to.match(/invalid sender/);
    });

    it('bytes that are not a transaction', async () => {
      const { rpc } = newNode();
      await expectRpcError(rpc('eth_sendRawTransaction', ['0xdeadbeef']), -32602, /invalid transaction/);
      await expectRpcError(rpc('eth_sendRawTransaction', ['0x']), -32602);
    });

    it('the same transaction twice', async () => {
      const { rpc } = newNode();
      const raw = await signed(0, { to: TO, nonce: 1, gasLimit: 21000 });
      await rpc('eth_sendRawTransaction', [raw]);
      await expectRpcError(rpc('eth_sendRawTransaction', [raw]), -32000, /^already known$/);
    });
  });

  it('reads state at historical blocks, by number, tag and hash', async () => {
    const { rpc } = newNode();
    const token = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    const iface = new Interface(artifact('Token').abi);
    await send(rpc, 0, { to: token, nonce: 1, data: iface.encodeFunctionData('transfer', [TO, 10n]) });
    await send(rpc, 0, { to: token, nonce: 2, data: iface.encodeFunctionData('transfer', [TO, 15n]) });
    const balanceAt = async (block: unknown) =>
      BigInt(await rpc<string>('eth_call', [{ to: token, data: iface.encodeFunctionData('balanceOf', [TO]) }, block]));
    expect(await balanceAt('0x1')).to.equal(0n);
    expect(await balanceAt('0x2')).to.equal(10n);
    expect(await balanceAt('latest')).to.equal(25n);
    const block2 = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x2', false]);
    expect(await balanceAt({ blockHash: block2.hash })).to.equal(10n);
    expect(await balanceAt({ blockNumber: '0x2' })).to.equal(10n);
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], '0x1'])).to.equal('0x1');
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'earliest'])).to.equal('0x0');
    expect(await rpc('eth_getCode', [token, '0x0'])).to.equal('0x');
    expect((await rpc<string>('eth_getCode', [token, 'latest'])).length).to.be.greaterThan(100);
    // totalSupply lives in slot 2 of Token.
    expect(await rpc('eth_getStorageAt', [token, '0x2', '0x1'])).to.equal(`0x${'3e8'.padStart(64, '0')}`);
    await expectRpcError(rpc('eth_getBalance', [TO, '0x99']), -32000, /header not found/);
    await expectRpcError(rpc('eth_getBalance', [TO, { blockHash: `0x${'11'.repeat(32)}` }]), -32000, /not found/);
  });

  it('signs eth_sendTransaction with owned keys and refuses unknown senders', async () => {
    const { rpc } = newNode();
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[1], to: TO, value: '0x7' }]);
    const receipt = await rpc<Record<string, string>>('eth_getTransactionReceipt', [hash]);
    expect(receipt.from).to.equal(ADDRESSES[1]);
    expect(receipt.gasUsed).to.equal('0x5208');
    await expectRpcError(rpc('eth_sendTransaction', [{ from: TO, to: TO }]), -32000, /unknown account/);
  });

  it('signs without sending (eth_signTransaction): the raw transaction, filled as a send would be', async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[1], to: TO, value: '0x1' }]); // waits in the pool: the next nonce is 1
    const raw = await rpc<string>('eth_signTransaction', [{ from: ADDRESSES[1], to: TO, value: '0x7', data: '0x1234' }]);
    const tx = Transaction.from(raw);
    expect(tx.from?.toLowerCase()).to.equal(ADDRESSES[1]);
    expect([tx.nonce, tx.value, tx.data, tx.to?.toLowerCase(), tx.chainId]).to.deep.equal([1, 7n, '0x1234', TO, BigInt(CHAIN_ID)]);
    expect(tx.gasLimit).to.equal(21_000n + 8n * 10n); // estimated: EIP-7623's floor for two calldata bytes (4 tokens each)
    expect(tx.type).to.equal(2);
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[1], 'latest'])).to.equal('0x0'); // nothing sent
    await rpc('evm_setAutomine', [true]);
    const hash = await rpc<string>('eth_sendRawTransaction', [raw]);
    expect(hash).to.equal(tx.hash);
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x8');
    await expectRpcError(rpc('eth_signTransaction', [{ from: TO, to: TO }]), -32000, /unknown account/);
    await expectRpcError(rpc('eth_signTransaction', [{ to: TO }]), -32602, /from/);
  });

  it('formats blocks, transactions and receipts with the fields go-ethereum returns', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const token = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    const receipt = await rpc<Record<string, unknown>>('eth_getTransactionReceipt', [
      (await rpc<{ transactions: string[] }>('eth_getBlockByNumber', ['0x1', false])).transactions[0],
    ]);
    expect(receipt).to.include.keys(
      'blockHash',
      'blockNumber',
      'contractAddress',
      'cumulativeGasUsed',
      'effectiveGasPrice',
      'from',
      'gasUsed',
      'logs',
      'logsBloom',
      'status',
      'to',
      'transactionHash',
      'transactionIndex',
      'type',
    );
    expect(receipt.contractAddress).to.equal(token);
    expect(receipt.to).to.equal(null);
    expect((receipt.logs as unknown[]).length).to.equal(1);
    const block = await rpc<Record<string, unknown>>('eth_getBlockByNumber', ['0x1', true]);
    expect(block).to.include.keys(
      'baseFeePerGas',
      'withdrawals',
      'withdrawalsRoot',
      'blobGasUsed',
      'excessBlobGas',
      'parentBeaconBlockRoot',
      'requestsHash',
      'totalDifficulty',
      'mixHash',
      'size',
    );
    const [tx] = block.transactions as Array<Record<string, unknown>>;
    expect(tx).to.include.keys(
      'blockHash',
      'chainId',
      'from',
      'gas',
      'gasPrice',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
      'hash',
      'input',
      'nonce',
      'r',
      's',
      'v',
      'yParity',
      'accessList',
      'transactionIndex',
      'type',
      'value',
    );
    expect(await rpc('eth_getBlockByHash', [block.hash, false])).to.deep.include({ hash: block.hash, number: '0x1' });
    expect(await rpc('eth_getBlockByHash', [`0x${'00'.repeat(32)}`, false])).to.equal(null);
    expect(await rpc('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0'])).to.deep.include({ hash: tx!.hash });
    expect(await rpc('eth_getTransactionByBlockHashAndIndex', [block.hash, '0x1'])).to.equal(null);
    expect(await rpc('eth_getBlockTransactionCountByNumber', ['0x1'])).to.equal('0x1');
    expect(await rpc('eth_getUncleCountByBlockNumber', ['0x1'])).to.equal('0x0');
    expect(await rpc('eth_getUncleByBlockNumberAndIndex', ['0x1', '0x0'])).to.equal(null);
    expect(await rpc<unknown[]>('eth_getBlockReceipts', ['0x1'])).to.have.length(1);
    expect(await rpc('eth_getTransactionReceipt', [`0x${'00'.repeat(32)}`])).to.equal(null);
  });

  it('answers node status methods', async () => {
    const { rpc } = newNode({ chainId: 31337 });
    expect(await rpc('eth_chainId')).to.equal('0x7a69');
    expect(await rpc('net_version')).to.equal('31337');
    expect(await rpc('chain_syncing')).to.equal(false);
    expect(await rpc('chain_mining')).to.equal(true);
    expect(await rpc<string[]>('chain_accounts')).to.have.length(10);
    expect((await rpc<string[]>('eth_accounts'))[0]).to.equal(ADDRESSES[0]);
    expect(await rpc('chain_coinbase')).to.equal(`0x${'00'.repeat(20)}`);
    expect(await rpc('web3_sha3', ['0x68656c6c6f'])).to.equal(keccak256('0x68656c6c6f'));
    expect(await rpc<string>('web3_clientVersion')).to.match(/^chain-sim\/v\d+\.\d+\.\d+\/[a-z0-9]+-[a-z0-9]+\/node\d+\./);
    expect(BigInt(await rpc<string>('eth_gasPrice')) > 0n).to.equal(true);
    const history = await rpc<{ baseFeePerGas: string[]; reward: string[][] }>('eth_feeHistory', ['0x1', 'latest', [50]]);
    expect(history.baseFeePerGas).to.have.length(2);
    expect(history.reward).to.have.length(1);
  });
});
