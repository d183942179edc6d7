import { expect } from 'chai';
import { type ChainSimOptions, type ChainSimProvider, createProvider, OptionError } from '../../src/index.js';
import type { SimNode } from '../../src/node.js';
import { expectRpcError } from '../helpers/chain.js';
import { counter, holder, HOLDERS, ledger, stateCalls, token, upstreamForSuite } from './upstream.js';

type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

function forkNode(options: ChainSimOptions): { provider: ChainSimProvider; rpc: Rpc; node: () => Promise<SimNode> } {
  const provider = createProvider({ quiet: true, forkCache: false, ...options });
  const rpc: Rpc = async <T>(method: string, params: unknown[] = []) => (await provider.request({ method, params })) as T;
  return { provider, rpc, node: () => provider.ready() };
}

const word = (value: bigint | number): string => `0x${BigInt(value).toString(16).padStart(64, '0')}`;
const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;

describe('forking a chain-sim upstream', function () {
  this.timeout(60_000);
  const up = upstreamForSuite();

  it('pins the upstream head, takes its chain id and links the first local block to the pinned hash', async () => {
    const { provider, rpc } = forkNode({ fork: up().url });
    try {
      expect(await rpc('eth_chainId')).to.equal(hex(31337));
      expect(BigInt(await rpc<string>('eth_blockNumber'))).to.equal(up().head);
      const pinned = await up().rpc<{ hash: string; number: string }>('eth_getBlockByNumber', [hex(up().head), false]);
      const ours = await rpc<{ hash: string; stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);
      expect(ours).to.deep.equal(pinned); // while the head is the pinned block, 'latest' is the upstream's block
      const metadata = await rpc<{ forkedNetwork: unknown }>('hardhat_metadata');
      expect(metadata.forkedNetwork).to.deep.equal({ chainId: 31337, forkBlockNumber: Number(up().head), forkBlockHash: pinned.hash });
      await rpc('chain_mine', []);
      const next = await rpc<{ parentHash: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
      expect(next.parentHash).to.equal(pinned.hash);
      expect(BigInt(next.number)).to.equal(up().head + 1n);
      // By hash, the pinned block is the upstream's full block; the local one is ours.
      expect((await rpc<{ number: string }>('eth_getBlockByHash', [pinned.hash, false])).number).to.equal(pinned.number);
    } finally {
      await provider.disconnect();
    }
  });

  it('reads balances, nested mappings, dynamic arrays and a proxy at the pinned block, each key fetched once', async () => {
    const pinned = up().head - 1n;
    const { provider, rpc } = forkNode({ fork: up().url, forkBlockNumber: pinned.toString() });
    try {
      expect(BigInt(await rpc<string>('eth_blockNumber'))).to.equal(pinned);
      for (const i of [1, 17, HOLDERS]) {
        const balance = await rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(i)]) }, 'latest']);
        expect(BigInt(balance)).to.equal(BigInt(i) * 1000n);
      }
      const alice = up().accounts[0]!;
      const sum = await rpc<string>('eth_call', [{ to: up().ledgerAddress, data: ledger.encodeFunctionData('sumOf', [alice]) }, 'latest']);
      // Alice recorded 100, 102, ..., 118 (ten records).
      expect(BigInt(sum)).to.equal(1090n);
      const entry = await rpc<string>('eth_call', [{ to: up().ledgerAddress, data: ledger.encodeFunctionData('entries', [alice, 4]) }, 'latest']);
      expect(BigInt(entry)).to.equal(114n); // records 4 (104) and 14 (114) used key 4
      const all = await rpc<string>('eth_call', [{ to: up().ledgerAddress, data: ledger.encodeFunctionData('allLength') }, 'latest']);
      expect(BigInt(all)).to.equal(21n); // twenty at the holders' block, one at the pinned block
      const count = await rpc<string>('eth_call', [{ to: up().proxyAddress, data: counter.encodeFunctionData('count') }, 'latest']);
      expect(BigInt(count)).to.equal(3n);
      expect(await rpc('eth_getCode', [up().tokenAddress, 'latest'])).to.equal(await up().rpc('eth_getCode', [up().tokenAddress, 'latest']));
      // 1,000 reads of one slot: one upstream request.
      const before = up().callCount('eth_getStorageAt');
      const slot = word(12345);
      for (let i = 0; i < 1000; i++) await rpc('eth_getStorageAt', [up().tokenAddress, slot, 'latest']);
      expect(up().callCount('eth_getStorageAt') - before).to.equal(1);
      // Concurrent reads of a key not fetched yet share one request too.
      const other = word(999);
      await Promise.all(Array.from({ length: 50 }, () => rpc('eth_getStorageAt', [up().tokenAddress, other, 'latest'])));
      expect(up().callCount('eth_getStorageAt') - before).to.equal(2);
    } finally {
      await provider.disconnect();
    }
  });

  it("impersonates a holder, transfers tokens, and history before the fork stays the upstream's", async () => {
    const pinned = up().head - 1n;
    const { provider, rpc } = forkNode({ fork: `${up().url}@${pinned}` });
    try {
      const whale = holder(HOLDERS);
      await rpc('hardhat_impersonateAccount', [whale]);
      await rpc('hardhat_setBalance', [whale, hex(10n ** 18n)]);
      const hash = await rpc<string>('eth_sendTransaction', [
        { from: whale, to: up().tokenAddress, data: token.encodeFunctionData('transfer', [holder(1), 500n]) },
      ]);
      const receipt = await rpc<{ status: string; blockNumber: string; logs: unknown[] }>('eth_getTransactionReceipt', [hash]);
      expect(receipt.status).to.equal('0x1');
      expect(BigInt(receipt.blockNumber)).to.equal(pinned + 1n);
      const balanceOf = (who: string, tag: string) =>
        rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [who]) }, tag]);
      expect(BigInt(await balanceOf(whale, 'latest'))).to.equal(BigInt(HOLDERS) * 1000n - 500n);
      expect(BigInt(await balanceOf(holder(1), 'latest'))).to.equal(1500n);
      // At the pinned block (local state at the fork point) and before it (the upstream's state).
      expect(BigInt(await balanceOf(holder(1), hex(pinned)))).to.equal(1000n);
      expect(BigInt(await balanceOf(holder(1), hex(up().holdersBlock - 1n)))).to.equal(0n);
      expect(BigInt(await rpc<string>('eth_getBalance', [up().accounts[0], hex(1)])) > 0n).to.equal(true);
      // The upstream never saw the local transfer.
      expect(
        BigInt(await up().rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(1)]) }, 'latest'])),
      ).to.equal(1001n);
      // Transactions and receipts of the upstream's history, up to the pinned block.
      const old = await rpc<{ blockNumber: string } | null>('eth_getTransactionByHash', [up().transferTx]);
      expect(BigInt(old!.blockNumber)).to.equal(up().holdersBlock);
      expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [up().transferTx])).status).to.equal('0x1');
      const block = await rpc<{ transactions: string[] }>('eth_getBlockByNumber', [hex(up().holdersBlock), false]);
      expect(block.transactions).to.include(up().transferTx);
      // The upstream's transaction after the pinned block is not part of this chain.
      const headBlock = await up().rpc<{ transactions: string[] }>('eth_getBlockByNumber', [hex(up().head), false]);
      expect(await rpc('eth_getTransactionByHash', [headBlock.transactions[0]])).to.equal(null);
      // Logs across the fork point: the upstream's transfers, then the local one.
      const logs = await rpc<Array<{ blockNumber: string; transactionHash: string }>>('eth_getLogs', [
        { address: up().tokenAddress, fromBlock: '0x0', toBlock: 'latest' },
      ]);
      expect(logs.length).to.equal(HOLDERS + 2); // mint, 60 transfers, the local transfer
      expect(logs[logs.length - 1]!.transactionHash).to.equal(hash);
      const numbers = logs.map((log) => BigInt(log.blockNumber));
      expect([...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).to.deep.equal(numbers);
      const localOnly = await rpc<unknown[]>('eth_getLogs', [{ address: up().tokenAddress, fromBlock: hex(pinned + 1n), toBlock: 'latest' }]);
      expect(localOnly.length).to.equal(1);
    } finally {
      await provider.disconnect();
    }
  });

  it('snapshots and reverts never refetch; setters, time travel and proxy upgrades work on forked state', async () => {
    const { provider, rpc } = forkNode({ fork: up().url });
    try {
      const whale = holder(5);
      await rpc('hardhat_impersonateAccount', [whale]);
      await rpc('hardhat_setBalance', [whale, hex(10n ** 18n)]);
      const balanceOf = (who: string) => rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest']);
      expect(BigInt(await balanceOf(whale))).to.equal(5000n);
      let afterFirst = 0;
      for (let round = 0; round < 5; round++) {
        if (round === 1) afterFirst = stateCalls(up());
        const id = await rpc<string>('evm_snapshot');
        await rpc('eth_sendTransaction', [{ from: whale, to: up().tokenAddress, data: token.encodeFunctionData('transfer', [holder(6), 5000n]) }]);
        expect(BigInt(await balanceOf(whale))).to.equal(0n);
        expect(BigInt(await balanceOf(holder(6)))).to.equal(11000n);
        expect(await rpc('evm_revert', [id])).to.equal(true);
        expect(BigInt(await balanceOf(whale))).to.equal(5000n);
        expect(BigInt(await balanceOf(holder(6)))).to.equal(6000n);
      }
      // Round one fetched holder 6's slot, the coinbase and the system contracts; later rounds fetched nothing.
      expect(stateCalls(up())).to.equal(afterFirst);
      const id = await rpc<string>('evm_snapshot');
      await rpc('eth_sendTransaction', [{ from: whale, to: up().tokenAddress, data: token.encodeFunctionData('transfer', [holder(6), 1n]) }]);
      await rpc('evm_revert', [id]);
      expect(stateCalls(up())).to.equal(afterFirst);
      // A zeroed slot shadows the upstream's value; a storage setter too.
      await rpc('hardhat_setStorageAt', [up().proxyAddress, word(0), word(0)]);
      expect(BigInt(await rpc<string>('eth_call', [{ to: up().proxyAddress, data: counter.encodeFunctionData('count') }, 'latest']))).to.equal(0n);
      // Upgrade the live proxy as its admin (account 0 of the upstream).
      const admin = up().accounts[0]!;
      await rpc('hardhat_impersonateAccount', [admin]);
      const upgrade = new (await import('ethers')).Interface(['function upgradeTo(address)']).encodeFunctionData('upgradeTo', [up().counterV2Address]);
      const tx = await rpc<string>('eth_sendTransaction', [{ from: admin, to: up().proxyAddress, data: upgrade }]);
      expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [tx])).status).to.equal('0x1');
      await rpc('eth_sendTransaction', [{ from: admin, to: up().proxyAddress, data: counter.encodeFunctionData('increment') }]);
      expect(BigInt(await rpc<string>('eth_call', [{ to: up().proxyAddress, data: counter.encodeFunctionData('count') }, 'latest']))).to.equal(2n);
      // Time travel.
      const now = BigInt(Math.floor(Date.now() / 1000));
      await rpc('evm_increaseTime', [86_400]);
      await rpc('evm_mine');
      const after = BigInt((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).timestamp);
      expect(after >= now + 86_400n).to.equal(true);
    } finally {
      await provider.disconnect();
    }
  });

  it('resets to another block, back to the pinned block, and from a local chain to a fork and back', async () => {
    const { provider, rpc } = forkNode({ fork: up().url });
    try {
      await rpc('chain_mine', ['0x3']);
      await rpc('hardhat_reset', [{ forking: { jsonRpcUrl: up().url, blockNumber: Number(up().holdersBlock - 1n) } }]);
      expect(BigInt(await rpc<string>('eth_blockNumber'))).to.equal(up().holdersBlock - 1n);
      expect(BigInt(await rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(3)]) }, 'latest']))).to.equal(
        0n,
      );
      // anvil_reset with a block number alone keeps the URL.
      await rpc('anvil_reset', [{ forking: { blockNumber: hex(up().holdersBlock) } }]);
      expect(BigInt(await rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(3)]) }, 'latest']))).to.equal(
        3000n,
      );
      await rpc('hardhat_reset', []);
      expect(BigInt(await rpc<string>('eth_blockNumber'))).to.equal(up().head);
    } finally {
      await provider.disconnect();
    }
    const local = forkNode({});
    try {
      await local.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: up().url } }]);
      expect(BigInt(await local.rpc<string>('eth_blockNumber'))).to.equal(up().head);
      expect(
        BigInt(await local.rpc<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(2)]) }, 'latest'])),
      ).to.equal(2000n);
      await local.rpc('hardhat_reset', []);
      expect(await local.rpc('eth_blockNumber')).to.equal('0x0');
      expect(await local.rpc('eth_getCode', [up().tokenAddress, 'latest'])).to.equal('0x');
      expect(await local.rpc('eth_chainId')).to.equal(hex(1337));
    } finally {
      await local.provider.disconnect();
    }
  });

  it('gives local blocks the same state roots and hashes in every run, whatever was read before', async () => {
    const run = async (extraReads: boolean) => {
      const { provider, rpc } = forkNode({ fork: up().url, forkBlockNumber: up().head.toString() });
      try {
        if (extraReads) {
          for (let i = 1; i <= 10; i++) await rpc('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(i)]) }, 'latest']);
          await rpc('eth_getCode', [up().ledgerAddress, 'latest']);
        }
        await rpc('hardhat_impersonateAccount', [holder(8)]);
        await rpc('hardhat_setBalance', [holder(8), hex(10n ** 18n)]);
        await rpc('evm_setNextBlockTimestamp', [Number(2_000_000_000n)]);
        await rpc('eth_sendTransaction', [
          {
            from: holder(8),
            to: up().tokenAddress,
            gas: hex(100_000),
            maxFeePerGas: hex(10n ** 11n),
            maxPriorityFeePerGas: hex(10n ** 9n),
            data: token.encodeFunctionData('transfer', [holder(9), 8n]),
          },
        ]);
        await rpc('evm_setNextBlockTimestamp', [Number(2_000_000_100n)]);
        await rpc('evm_mine');
        const blocks = [];
        for (const n of [up().head + 1n, up().head + 2n])
          blocks.push(await rpc<{ hash: string; stateRoot: string; parentHash: string }>('eth_getBlockByNumber', [hex(n), false]));
        return blocks.map(({ hash, stateRoot, parentHash }) => ({ hash, stateRoot, parentHash }));
      } finally {
        await provider.disconnect();
      }
    };
    const first = await run(false);
    const second = await run(true);
    expect(second).to.deep.equal(first);
    expect(first[1]!.parentHash).to.equal(first[0]!.hash);
  });

  it('filters, tracing and a historical trace of the upstream work on a fork', async () => {
    const { provider, rpc } = forkNode({ fork: up().url });
    try {
      const filter = await rpc<string>('eth_newFilter', [{ address: up().tokenAddress }]);
      await rpc('hardhat_impersonateAccount', [holder(11)]);
      await rpc('hardhat_setBalance', [holder(11), hex(10n ** 18n)]);
      const hash = await rpc<string>('eth_sendTransaction', [
        { from: holder(11), to: up().tokenAddress, data: token.encodeFunctionData('transfer', [holder(12), 11n]) },
      ]);
      const changes = await rpc<Array<{ transactionHash: string }>>('eth_getFilterChanges', [filter]);
      expect(changes.map((log) => log.transactionHash)).to.deep.equal([hash]);
      const trace = await rpc<{ failed: boolean; structLogs: Array<{ op: string }> }>('debug_traceTransaction', [hash]);
      expect(trace.failed).to.equal(false);
      expect(trace.structLogs.some((step) => step.op === 'SSTORE')).to.equal(true);
      const callTrace = await rpc<{ failed: boolean; returnValue: string }>('debug_traceCall', [
        { to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(12)]) },
        'latest',
      ]);
      expect(BigInt(`0x${callTrace.returnValue.replace(/^0x/, '')}`)).to.equal(12_011n);
      // Every tracer and Parity/Otterscan method replays the local block on the forked state.
      const receipt = await rpc<{ blockNumber: string; gasUsed: string }>('eth_getTransactionReceipt', [hash]);
      const [parityTrace] = await rpc<Array<{ action: { from: string; to: string }; blockNumber: number; transactionHash: string }>>('trace_transaction', [
        hash,
      ]);
      expect(parityTrace!.action).to.include({ from: holder(11), to: up().tokenAddress.toLowerCase() });
      const replay = await rpc<{ stateDiff: Record<string, { storage: object }>; vmTrace: { ops: Array<{ op: string }> } }>('trace_replayTransaction', [
        hash,
        ['trace', 'stateDiff', 'vmTrace'],
      ]);
      expect(Object.keys(replay.stateDiff[up().tokenAddress.toLowerCase()]!.storage)).to.have.length(2); // both balances
      expect(replay.vmTrace.ops.filter((op) => op.op === 'SSTORE')).to.have.length(2);
      const [blockTrace] = await rpc<Array<{ txHash: string; result: Record<string, object> }>>('debug_traceBlockByNumber', [
        receipt.blockNumber,
        { tracer: 'prestateTracer' },
      ]);
      expect(blockTrace!.txHash).to.equal(hash);
      expect(blockTrace!.result).to.have.property(up().tokenAddress.toLowerCase());
      const otsTrace = await rpc<Array<{ type: string; from: string }>>('ots_traceTransaction', [hash]);
      expect(otsTrace[0]).to.include({ type: 'CALL', from: holder(11) });
      // The upstream's history is traced by the upstream: its blocks and transactions, the older part of a trace_filter range.
      const head = hex(up().head);
      for (const [method, params] of [
        ['trace_transaction', [up().transferTx]],
        ['trace_get', [up().transferTx, ['0x0']]],
        ['trace_replayTransaction', [up().transferTx, ['trace', 'stateDiff']]],
        ['trace_block', [head]],
        ['trace_replayBlockTransactions', [head, ['trace']]],
        ['debug_traceBlockByNumber', [head, { tracer: 'callTracer' }]],
      ] as Array<[string, unknown[]]>) {
        expect(await rpc(method, params), method).to.deep.equal(await up().rpc(method, params));
      }
      const upstreamPart = await up().rpc<unknown[]>('trace_filter', [{ fromBlock: '0x0', toBlock: head }]);
      const all = await rpc<Array<{ transactionHash: string }>>('trace_filter', [{}]);
      expect(all).to.deep.equal([...upstreamPart, parityTrace]);
      expect(all.at(-1)!.transactionHash).to.equal(hash);
      expect(await rpc('trace_filter', [{ after: 1, count: 2 }])).to.deep.equal(all.slice(1, 3));
      expect(await rpc('trace_filter', [{ fromBlock: receipt.blockNumber }])).to.deep.equal([parityTrace]);
      // A transaction of the upstream's history is traced by the upstream.
      const upstreamTrace = await rpc<{ failed: boolean; structLogs: unknown[] }>('debug_traceTransaction', [up().transferTx]);
      expect(upstreamTrace).to.deep.equal(await up().rpc('debug_traceTransaction', [up().transferTx]));
      const unknown = `0x${'77'.repeat(32)}`;
      await expectRpcError(rpc('debug_traceTransaction', [unknown]), -32000, /transaction not found/);
    } finally {
      await provider.disconnect();
    }
  });

  it('a local upstream that uses a known chain id (1) but not its schedule gets the rules its header shows', async () => {
    const { createServer } = await import('../../src/index.js');
    const mainnetLookalike = await createServer({ quiet: true, chainId: 1, hardfork: 'cancun', port: 0 });
    const { url } = await mainnetLookalike.listen(0, '127.0.0.1');
    const { provider } = forkNode({ fork: url });
    try {
      const session = (await provider.ready()).fork.session!;
      expect([session.chainId, session.hardfork]).to.deep.equal([1n, 'cancun']);
      // Not mainnet's schedule: chain-sim upstreams answer anvil_nodeInfo (else the header decides).
      expect(session.hardforkSource).to.match(/as the upstream reports it|inferred from the header/);
    } finally {
      await provider.disconnect();
      await mainnetLookalike.close();
    }
  });

  it('counts a negative block number back from the upstream head; refuses bad fork options clearly', async () => {
    const { provider, rpc } = forkNode({ fork: up().url, forkBlockNumber: '-10' });
    try {
      expect(BigInt(await rpc<string>('eth_blockNumber'))).to.equal(up().head - 10n);
    } finally {
      await provider.disconnect();
    }
    // A bad option throws when the provider is created; an upstream without the block fails when the fork connects.
    expect(() => forkNode({ fork: 'ftp://example.invalid' })).to.throw(OptionError, /invalid value for fork: only http and https upstreams/);
    const late = createProvider({ quiet: true, forkCache: false, fork: up().url, forkBlockNumber: (up().head + 100n).toString() });
    let message = '';
    await late.request({ method: 'eth_chainId' }).catch((error: Error) => (message = error.message));
    expect(message).to.match(/has no block/);
  });
});
