/** Start-up switches through createProvider: each changes what it says, and only that. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Interface } from 'ethers';
import type { ChainSimOptions } from '../../src/index.js';
import { resolveOptions } from '../../src/options.js';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode } from '../helpers/chain.js';

/** Init code that deploys `size` zero bytes: PUSH2 size, PUSH1 0, RETURN. */
const deploysBytes = (size: number) => `0x61${size.toString(16).padStart(4, '0')}6000f3`;
/** Init code that returns the gas it was given (GAS, MSTORE at 0, RETURN 32 bytes): what eth_call ran with. */
const RETURNS_GAS = '0x5a60005260206000f3';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function receiptOf(rpc: ReturnType<typeof newNode>['rpc'], hash: string) {
  return rpc<{ status: string; contractAddress: string | null; blockNumber: string }>('eth_getTransactionReceipt', [hash]);
}

describe('start-up switches (createProvider)', function () {
  this.timeout(30_000);
  const nodes: Array<ReturnType<typeof newNode>> = [];
  const node = (options: ChainSimOptions) => {
    const made = newNode(options);
    nodes.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.provider.disconnect()));
  });

  it('codeSizeLimit: code above the limit is refused, at the limit it deploys', async () => {
    // Failed deployments answer their hash (no Hardhat node errors): the receipts tell.
    const { rpc } = node({ codeSizeLimit: 100, hardhatNode: false });
    const over = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: deploysBytes(101), gas: '0x100000' }]);
    expect((await receiptOf(rpc, over)).status).to.equal('0x0');
    const at = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: deploysBytes(100), gas: '0x100000' }]);
    expect((await receiptOf(rpc, at)).status).to.equal('0x1');
  });

  it('disableCodeSizeLimit: code above 24576 bytes deploys (refused without it), also in eth_call', async () => {
    for (const [options, status] of [
      [{}, '0x0'],
      [{ disableCodeSizeLimit: true }, '0x1'],
    ] as const) {
      const { rpc } = node({ ...options, hardhatNode: false });
      const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: deploysBytes(24_577), gas: '0x1000000' }]);
      expect((await receiptOf(rpc, hash)).status, JSON.stringify(options)).to.equal(status);
    }
    const { rpc } = node({ disableCodeSizeLimit: true });
    expect(await rpc<string>('eth_call', [{ data: deploysBytes(30_000), gas: '0x1000000' }])).to.have.length(2 + 60_000);
    expect(() => resolveOptions({ disableCodeSizeLimit: true, codeSizeLimit: 5 })).to.throw(
      /disable-code-size-limit: cannot be combined with --code-size-limit/,
    );
  });

  it('disableBlockGasLimit: blocks take any transaction', async () => {
    const { rpc } = node({ disableBlockGasLimit: true });
    const block = await rpc<{ gasLimit: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(block.gasLimit)).to.equal(2n ** 63n - 1n);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], gas: '0x3b9aca00' }]);
    expect((await receiptOf(rpc, hash)).status).to.equal('0x1');
    const { rpc: limited } = node({});
    await expectRpcError(limited('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], gas: '0x3b9aca00' }]), -32000, /gas limit/);
  });

  it('gasPrice: eth_gasPrice answers it and legacy sends without a price pay it', async () => {
    const { rpc } = node({ gasPrice: 3_000_000_000n });
    expect(await rpc('eth_gasPrice')).to.equal('0xb2d05e00');
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], type: '0x0' }]);
    expect((await rpc<{ gasPrice: string }>('eth_getTransactionByHash', [hash])).gasPrice).to.equal('0xb2d05e00');
  });

  it('transactionGasCap: eth_call and eth_estimateGas run with at most the cap', async () => {
    const { rpc } = node({ transactionGasCap: 100_000 });
    expect(Number(await rpc<string>('eth_call', [{ data: RETURNS_GAS }]))).to.be.below(100_000);
    const { rpc: uncapped } = node({});
    expect(Number(await uncapped<string>('eth_call', [{ data: RETURNS_GAS }]))).to.be.above(1_000_000);
  });

  it('disableMinPriorityFee: the suggested and filled-in tip is 0', async () => {
    const { rpc } = node({ disableMinPriorityFee: true });
    expect(await rpc('eth_maxPriorityFeePerGas')).to.equal('0x0');
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1] }]);
    expect((await rpc<{ maxPriorityFeePerGas: string }>('eth_getTransactionByHash', [hash])).maxPriorityFeePerGas).to.equal('0x0');
  });

  it('noMining: a send stays in the pool until evm_mine', async () => {
    const { rpc } = node({ noMining: true });
    expect(await rpc('hardhat_getAutomine')).to.equal(false);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1] }]);
    expect(await receiptOf(rpc, hash)).to.equal(null);
    await rpc('evm_mine');
    expect((await receiptOf(rpc, hash)).status).to.equal('0x1');
  });

  it('mixedMining: automine and an interval together; miningInterval [min, max] mines at random intervals', async () => {
    const { rpc } = node({ mixedMining: true, miningInterval: [100, 100] });
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1] }]);
    expect((await receiptOf(rpc, hash)).status).to.equal('0x1');
    await sleep(550);
    expect(Number(await rpc('eth_blockNumber'))).to.be.within(4, 8);
    const { rpc: ranged } = node({ miningInterval: '50,150' });
    expect(await ranged('hardhat_getAutomine')).to.equal(false);
    await sleep(1000);
    expect(Number(await ranged('eth_blockNumber'))).to.be.within(5, 21);
    expect(() => resolveOptions({ miningInterval: [200, 100] })).to.throw(/mining-interval: expected milliseconds/);
    expect(() => resolveOptions({ mixedMining: true })).to.throw(/mixed-mining: needs --block-time or --mining-interval/);
  });

  it('allowSameTimestamp: blocks mined in one second may share it (not without the switch)', async () => {
    const now = Date.now();
    const wallClock = () => now;
    for (const [allow, expected] of [
      [true, 1],
      [false, 3],
    ] as const) {
      const { rpc } = node({ allowSameTimestamp: allow, wallClock });
      for (let i = 0; i < 3; i++) await rpc('evm_mine');
      const stamps = new Set<string>();
      for (const n of [1, 2, 3]) stamps.add((await rpc<{ timestamp: string }>('eth_getBlockByNumber', [`0x${n}`, false])).timestamp);
      expect(stamps.size, `allowSameTimestamp ${allow}`).to.equal(expected);
    }
  });

  it("allowSameTimestamp: evm_setNextBlockTimestamp and evm_mine take the head's own timestamp (as Hardhat's)", async () => {
    const headTime = async (rpc: ReturnType<typeof node>['rpc']) =>
      Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).timestamp);
    const { rpc } = node({ allowSameTimestamp: true });
    await rpc('evm_mine');
    const head = await headTime(rpc);
    await rpc('evm_setNextBlockTimestamp', [head]);
    await rpc('evm_mine');
    await rpc('evm_mine', [head]);
    expect([Number(await rpc('eth_blockNumber')), await headTime(rpc)]).to.deep.equal([3, head]);

    const { rpc: strict } = node({});
    await strict('evm_mine');
    const last = await headTime(strict);
    const refused = new RegExp(`timestamp ${last} is not after the latest block's timestamp ${last}`);
    await expectRpcError(strict('evm_setNextBlockTimestamp', [last]), -32602, refused);
    await expectRpcError(strict('evm_mine', [last]), -32602, refused);
  });

  it('timestamp: the genesis block has it and later blocks continue from it', async () => {
    const { rpc } = node({ timestamp: 1_600_000_000 });
    expect((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['0x0', false])).timestamp).to.equal('0x5f5e1000');
    await rpc('evm_mine');
    const next = Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).timestamp);
    expect(next).to.be.within(1_600_000_000, 1_600_000_010);
  });

  it('accountKeys: accounts by key with their balances replace the derived ones', async () => {
    const key = `0x${'33'.repeat(32)}`;
    const { rpc } = node({ accountKeys: [`${key},12345`, { privateKey: `0x${'44'.repeat(32)}` }] });
    const accounts = await rpc<string[]>('eth_accounts');
    expect(accounts).to.have.length(2);
    expect(await rpc('eth_getBalance', [accounts[0], 'latest'])).to.equal('0x3039');
    expect(BigInt(await rpc<string>('eth_getBalance', [accounts[1], 'latest']))).to.equal(10_000n * 10n ** 18n);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: accounts[1], to: accounts[0], value: '0x1' }]);
    expect((await receiptOf(rpc, hash)).status).to.equal('0x1');
    expect(await node({ accountKeys: [key], accounts: 2 }).rpc<string[]>('eth_accounts')).to.have.length(3);
    expect(() => resolveOptions({ accountKeys: ['0x1234'] })).to.throw(/account: entry 0: expected a 32-byte hex private key/);
  });

  it('autoImpersonate and unlock: addresses that send without a signature', async () => {
    const stranger = '0x00000000000000000000000000000000000000cc';
    const other = '0x00000000000000000000000000000000000000dd';
    const { rpc } = node({ unlock: [stranger] });
    for (const who of [stranger, other]) await rpc('hardhat_setBalance', [who, '0xde0b6b3a7640000']);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: stranger, to: ADDRESSES[0] }]);
    expect((await receiptOf(rpc, hash)).status).to.equal('0x1');
    await expectRpcError(rpc('eth_sendTransaction', [{ from: other, to: ADDRESSES[0] }]), -32000, /unknown account/);
    // Ganache's index form names one of the node's own accounts (unlocked already); a missing one is refused.
    expect(await node({ unlock: ['0', 1] }).rpc<string[]>('eth_accounts')).to.have.length(10);
    const missing = await newNode({ unlock: [99] })
      .rpc('eth_chainId')
      .then(
        () => undefined,
        (error: Error) => error.message,
      );
    expect(missing).to.match(/unlock: there is no account 99/);
    const { rpc: all } = node({ autoImpersonate: true });
    await all('hardhat_setBalance', [other, '0xde0b6b3a7640000']);
    expect((await receiptOf(all, await all<string>('eth_sendTransaction', [{ from: other, to: ADDRESSES[0] }]))).status).to.equal('0x1');
  });

  it('accountsOut: the accounts, keys and chain id as JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chain-sim-accounts-'));
    try {
      const file = join(dir, 'accounts.json');
      const { provider, rpc } = node({ accountsOut: file, accounts: 2, chainId: 5 });
      await provider.ready();
      const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      // Anvil's --config-out fields (anvil 1.7.1 writes these, gas_limit null unless given), then chain-sim's own.
      expect(Object.keys(written)).to.include.members([
        'available_accounts',
        'private_keys',
        'wallet',
        'base_fee',
        'gas_price',
        'gas_limit',
        'genesis_timestamp',
      ]);
      expect(written.gas_price).to.equal(BigInt(await rpc<string>('eth_gasPrice')).toString());
      expect(written.available_accounts).to.deep.equal(ADDRESSES.slice(0, 2));
      expect(written.chain_id).to.equal(5);
      expect((written.private_keys as string[])[0]).to.equal('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
      expect((written.accounts as Array<{ balance: string }>)[0]!.balance).to.equal(String(10_000n * 10n ** 18n));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('slotsInAnEpoch: safe lags the head by N blocks and finalized by 2N', async () => {
    const { rpc } = node({ slotsInAnEpoch: 3 });
    await rpc('hardhat_mine', ['0xa']);
    expect((await rpc<{ number: string }>('eth_getBlockByNumber', ['safe', false])).number).to.equal('0x7');
    expect((await rpc<{ number: string }>('eth_getBlockByNumber', ['finalized', false])).number).to.equal('0x4');
    const { rpc: plain } = node({});
    await plain('evm_mine');
    expect((await plain<{ number: string }>('eth_getBlockByNumber', ['finalized', false])).number).to.equal('0x1');
  });

  it('number: the chain starts at that block, and everything counts on from it', async () => {
    const { rpc } = node({ number: 1000 });
    type Block = { number: string; hash: string; parentHash: string };
    const genesis = await rpc<Block>('eth_getBlockByNumber', ['earliest', false]);
    expect([await rpc('eth_blockNumber'), genesis.number]).to.deep.equal(['0x3e8', '0x3e8']);
    expect(await rpc('eth_getBlockByNumber', ['0x3e7', false])).to.equal(null);
    const snapshot = await rpc<string>('evm_snapshot');
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    const receipt = await receiptOf(rpc, hash);
    expect(receipt.blockNumber).to.equal('0x3e9');
    expect((await rpc<Block>('eth_getBlockByNumber', ['0x3e9', false])).parentHash).to.equal(genesis.hash);
    expect(await rpc<unknown[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).to.deep.equal([]);
    await rpc('evm_revert', [snapshot]);
    await rpc('hardhat_mine', ['0x2']);
    await rpc('hardhat_reset');
    expect(await rpc('eth_blockNumber')).to.equal('0x3e8');
    expect(() => resolveOptions({ number: 5, fork: 'http://127.0.0.1:1' })).to.throw(/number: cannot be combined with --fork/);
    expect(() => resolveOptions({ number: -1 })).to.throw(/invalid value for number/);
  });

  it('noConsoleLog: console.log lines are not printed; other lines still are', async () => {
    const console = new Interface(artifact('ConsoleLogger').abi);
    for (const [noConsoleLog, expected] of [
      [false, 1],
      [true, 0],
    ] as const) {
      const lines: string[] = [];
      const { rpc } = node({ quiet: false, noConsoleLog, verbose: true, logger: (line) => lines.push(line) });
      const address = await deploy(rpc, 'ConsoleLogger');
      await rpc('eth_call', [{ to: address, data: console.encodeFunctionData('logView') }]);
      await rpc('eth_blockNumber');
      expect(
        lines.filter((line) => line.startsWith('view call')),
        `noConsoleLog ${noConsoleLog}`,
      ).to.have.length(expected);
      expect(lines.some((line) => line.startsWith('eth_call'))).to.equal(true);
    }
  });

  it('printTraces: a call tree for each mined transaction', async () => {
    const lines: string[] = [];
    const { rpc } = node({ quiet: false, printTraces: true, hardhatNode: false, logger: (line) => lines.push(line) });
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: '0x60006000fd', gas: '0x100000' }]);
    await receiptOf(rpc, hash);
    for (let i = 0; i < 50 && lines.length === 0; i++) await sleep(10);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(`^Traces for ${hash}:\\n  \\[\\d+\\] CREATE ${ADDRESSES[0]} → \\(failed creation\\)::5 bytes of init code\\n    ← \\[execution reverted\\]`),
    );
  });

  it('printTraces: nested calls are indented under their caller, a caught revert shows its reason', async () => {
    const lines: string[] = [];
    const { rpc } = node({ quiet: false, printTraces: true, logger: (line) => lines.push(line) });
    const tree = await deploy(rpc, 'CallTree');
    for (let i = 0; i < 50 && lines.length === 0; i++) await sleep(10);
    lines.length = 0;
    const hash = await rpc<string>('eth_sendTransaction', [
      { from: ADDRESSES[0], to: tree, data: new Interface(artifact('CallTree').abi).encodeFunctionData('run'), gas: '0x1000000' },
    ]);
    await receiptOf(rpc, hash);
    for (let i = 0; i < 50 && lines.length === 0; i++) await sleep(10);
    const trace = lines[0]!.split('\n');
    expect(trace[0]).to.equal(`Traces for ${hash}:`);
    expect(trace[1]).to.match(new RegExp(`^  \\[\\d+\\] CALL ${ADDRESSES[0]} → ${tree}::0x[0-9a-f]{8}$`));
    for (const kind of ['CREATE', 'CREATE2', 'CALL', 'STATICCALL', 'DELEGATECALL']) {
      expect(
        trace.some((line) => new RegExp(`^    [├└]─ \\[\\d+\\] ${kind} `).test(line)),
        kind,
      ).to.equal(true);
    }
    expect(trace.some((line) => /← \[execution reverted: callee failed\]/.test(line))).to.equal(true);
    expect(trace.at(-1)).to.match(/^ {4}← \[Return\] 0x/);
  });

  it('json: log lines are JSON objects', async () => {
    const lines: string[] = [];
    const { rpc } = node({ quiet: false, json: true, verbose: true, logger: (line) => lines.push(line) });
    await rpc('eth_chainId');
    const parsed = JSON.parse(lines.at(-1)!) as { time: string; message: string };
    expect(parsed.message).to.match(/^eth_chainId \d+\.\dms$/);
    expect(Date.parse(parsed.time)).to.be.closeTo(Date.now(), 60_000);
  });

  it('deterministic, networkId and vmErrorsOnRPCResponse as plain chain-sim options', async () => {
    const { rpc } = node({ deterministic: true, networkId: 12345, vmErrorsOnRPCResponse: true });
    expect((await rpc<string[]>('eth_accounts'))[0]).to.equal('0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1');
    expect(await rpc('net_version')).to.equal('12345');
    expect(await rpc('eth_chainId')).to.equal('0x539');
    const accounts = await rpc<string[]>('eth_accounts');
    await expectRpcError(
      rpc('eth_sendTransaction', [{ from: accounts[0], data: '0x60006000fd', gas: '0x100000' }]),
      -32000,
      /^VM Exception while processing transaction: revert$/,
    );
    expect(() => resolveOptions({ deterministic: true, mnemonic: 'test test test test test test test test test test test junk' })).to.throw(
      /deterministic: cannot be combined with --mnemonic/,
    );
  });
});
