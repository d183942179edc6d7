// The measured workloads. Each one signs everything it will send before the
// clock starts, then issues one request at a time per loop, so the figure is
// the tool's request latency and not the bench's signing or pipelining.
import { getCreateAddress } from 'ethers';
import type { Account, Fees, TxSigner } from './accounts.js';
import { asData, asQuantity, asRecord, RpcError, type RpcClient } from './rpc.js';
import { encodeBalanceOf, encodeConstructor, encodeTransfer, TRANSFER_TOPIC, type TokenArtifact } from './token.js';

/** Account roles: 0 sequential sender and token owner, 1..8 concurrent senders, 9 warm-up. */
export const ACCOUNT_COUNT = 10;
const CONCURRENT_SENDERS = 8;
const WARMUP_ACCOUNT = 9;
/** Not one of the funded accounts, so transfers never touch a sender's own balance. */
const RECIPIENT = '0x000000000000000000000000000000000000bEEF';
const GWEI = 1_000_000_000n;
const TRANSFER_GAS = 21_000n;
const TOKEN_TRANSFER_GAS = 100_000n;
const DEPLOY_GAS = 1_500_000n;
const RECEIPT_WAIT_MS = 5_000;

export interface Measurement {
  /** Operations completed inside the timed section. */
  ops: number;
  ms: number;
}

/** How often a tool broke the automine contract the workloads assume; the waits are inside the timings. */
export interface SendStats {
  confirmed: number;
  /** Sends whose first receipt query answered null (mining is asynchronous). */
  late: number;
  /** Extra receipt queries spent waiting for those. */
  polls: number;
  /** Sends right after a revert refused because the pool still held the reverted nonce. */
  staleRejects: number;
}

/** Per-target state shared by the workloads: fees, nonces, the deployed token. */
export class Session {
  private fees: Fees | undefined;
  private tokenAddress: string | undefined;
  readonly stats: SendStats = { confirmed: 0, late: 0, polls: 0, staleRejects: 0 };

  constructor(
    readonly client: RpcClient,
    readonly accounts: readonly Account[],
    readonly signer: TxSigner,
    private readonly tokenArtifact: () => TokenArtifact,
  ) {}

  /** Fails early (and clearly) if the target did not fund the shared mnemonic's accounts. */
  async checkFunded(): Promise<void> {
    for (const account of this.accounts) {
      const balance = asQuantity('eth_getBalance', await this.client.request('eth_getBalance', [account.address, 'latest']));
      if (balance < 10n ** 18n) throw new Error(`account ${account.address} is not funded: wrong mnemonic?`);
    }
  }

  /**
   * Base fees differ per tool and only fall under these near-empty blocks, so
   * 100 gwei (or twice the current base fee, if ever higher) stays valid for the whole run.
   */
  async txFees(): Promise<Fees> {
    if (this.fees === undefined) {
      const block = asRecord('eth_getBlockByNumber', await this.client.request('eth_getBlockByNumber', ['latest', false]));
      const baseFee = block.baseFeePerGas === undefined ? 0n : asQuantity('baseFeePerGas', block.baseFeePerGas);
      const maxPriorityFeePerGas = GWEI;
      const floor = 2n * baseFee + maxPriorityFeePerGas;
      this.fees = { maxFeePerGas: floor > 100n * GWEI ? floor : 100n * GWEI, maxPriorityFeePerGas };
    }
    return this.fees;
  }

  async nonce(account: Account): Promise<number> {
    const count = await this.client.request('eth_getTransactionCount', [account.address, 'latest']);
    return Number(asQuantity('eth_getTransactionCount', count));
  }

  async balance(address: string): Promise<bigint> {
    return asQuantity('eth_getBalance', await this.client.request('eth_getBalance', [address, 'latest']));
  }

  async tokenBalance(token: string, owner: string): Promise<bigint> {
    const call = { to: token, data: encodeBalanceOf(owner) };
    return BigInt(asData('eth_call', await this.client.request('eth_call', [call, 'latest'])));
  }

  /**
   * Reads, before a run of transfers, what it must change, and returns the check for after it:
   * each sender's nonce moved by `perSender` and the recipient's balance (`received`) by
   * `perSender * senders.length * amount`. A figure is only reported once its run checks out.
   */
  async expectTransfers(senders: readonly Account[], perSender: number, received: () => Promise<bigint>, amount: bigint): Promise<() => Promise<void>> {
    const nonces = await Promise.all(senders.map((sender) => this.nonce(sender)));
    const start = await received();
    return async () => {
      for (const [i, sender] of senders.entries()) {
        const nonce = await this.nonce(sender);
        if (nonce !== nonces[i]! + perSender) throw new Error(`after the run ${sender.address} has nonce ${nonce}, expected ${nonces[i]! + perSender}`);
      }
      const got = (await received()) - start;
      const want = BigInt(perSender * senders.length) * amount;
      if (got !== want) throw new Error(`after the run the recipient received ${got}, expected ${want}`);
    };
  }

  /** Pre-signs `count` consecutive transactions from `from`, starting at its current nonce. */
  async presign(from: Account, count: number, fields: { to: string | null; gasLimit: bigint; value?: bigint; data?: string }): Promise<string[]> {
    const [nonce, fees] = [await this.nonce(from), await this.txFees()];
    return Array.from({ length: count }, (_, i) => this.signer.sign(from, { ...fields, nonce: nonce + i, fees }));
  }

  /**
   * The automine contract: once the send answers, the receipt exists and succeeded.
   * afterRevert: the nonce was just rolled back, and a tool that prunes its pool
   * asynchronously may still hold the reverted transaction; retry (and count) then.
   */
  async sendAndConfirm(raw: string, afterRevert = false): Promise<void> {
    const hash = asData('eth_sendRawTransaction', await this.send(raw, afterRevert));
    let receipt = await this.client.request('eth_getTransactionReceipt', [hash]);
    // A tool that mines asynchronously answers null at first: poll back to back
    // (a sleep would bill the bench's timer granularity to the tool) and count it.
    if (receipt === null) this.stats.late++;
    const deadline = performance.now() + RECEIPT_WAIT_MS;
    while (receipt === null && performance.now() < deadline) {
      this.stats.polls++;
      receipt = await this.client.request('eth_getTransactionReceipt', [hash]);
    }
    if (receipt === null) throw new RpcError('eth_getTransactionReceipt', undefined, `no receipt for ${hash}`);
    const status = asRecord('eth_getTransactionReceipt', receipt).status;
    if (status !== '0x1') throw new RpcError('eth_getTransactionReceipt', undefined, `${hash} has status ${String(status)}`);
    this.stats.confirmed++;
  }

  private async send(raw: string, afterRevert: boolean): Promise<unknown> {
    const deadline = performance.now() + RECEIPT_WAIT_MS;
    for (;;) {
      try {
        return await this.client.request('eth_sendRawTransaction', [raw]);
      } catch (error) {
        const stale = error instanceof RpcError && /already imported|replacement transaction underpriced/i.test(error.message);
        if (!afterRevert || !stale || performance.now() > deadline) throw error;
        this.stats.staleRejects++;
      }
    }
  }

  /**
   * Runs body and then rolls the chain back, so every workload starts from the
   * same state and chain length whatever ran before it (some tools slow down
   * as the chain grows; that would otherwise be charged to later workloads).
   */
  async isolated<T>(body: () => Promise<T>): Promise<T> {
    const id = await this.client.request('evm_snapshot');
    let result: T;
    try {
      result = await body();
    } catch (error) {
      await this.client.request('evm_revert', [id]);
      throw error;
    }
    if ((await this.client.request('evm_revert', [id])) !== true) {
      throw new RpcError('evm_revert', undefined, `snapshot ${String(id)} was not reverted`);
    }
    return result;
  }

  /** Deploys the token once per target, on first use; account 0 holds the whole supply. */
  async token(): Promise<string> {
    if (this.tokenAddress === undefined) {
      const owner = this.accounts[0]!;
      const nonce = await this.nonce(owner);
      const data = encodeConstructor(this.tokenArtifact(), 10n ** 30n);
      await this.sendAndConfirm(this.signer.sign(owner, { to: null, nonce, gasLimit: DEPLOY_GAS, data, fees: await this.txFees() }));
      this.tokenAddress = getCreateAddress({ from: owner.address, nonce });
    }
    return this.tokenAddress;
  }
}

async function timed(ops: number, body: () => Promise<void>): Promise<Measurement> {
  const start = performance.now();
  await body();
  return { ops, ms: performance.now() - start };
}

async function sendAll(session: Session, raws: readonly string[]): Promise<void> {
  for (const raw of raws) await session.sendAndConfirm(raw);
}

/**
 * `perSender` 1-wei transfers from each sender to RECIPIENT, the senders concurrently, each
 * after `untimed` ones that are not measured; the nonces and the recipient's balance are checked after.
 */
async function checkedTransfers(session: Session, senders: readonly Account[], perSender: number, untimed: number): Promise<Measurement> {
  const batches: string[][] = [];
  for (const sender of senders) {
    batches.push(await session.presign(sender, untimed + perSender, { to: RECIPIENT, gasLimit: TRANSFER_GAS, value: 1n }));
  }
  for (const raws of batches) await sendAll(session, raws.slice(0, untimed));
  const check = await session.expectTransfers(senders, perSender, () => session.balance(RECIPIENT), 1n);
  const measurement = await timed(perSender * senders.length, async () => {
    await Promise.all(batches.map((raws) => sendAll(session, raws.slice(untimed))));
  });
  await check();
  return measurement;
}

export type Unit = 'tx/s' | 'calls/s' | 'cycles/s' | 'ms/query';

export const higherIsBetter = (unit: Unit): boolean => unit !== 'ms/query';

/** One measurement expressed in its workload's unit. */
export const figure = (unit: Unit, m: Measurement): number => (unit === 'ms/query' ? m.ms / m.ops : m.ops / (m.ms / 1000));

export interface Workload {
  readonly name: string;
  /** Row label for a run with N operations per workload. */
  readonly label: (n: number) => string;
  readonly unit: Unit;
  /** Run only when named in --workloads. */
  readonly optIn?: boolean;
  /** Needs the token deployed before its state snapshot is taken. */
  readonly usesToken?: boolean;
  run(session: Session, n: number): Promise<Measurement>;
}

/** Snapshot cycles cost several requests each; a quarter of N keeps the row comparable in wall time. */
const snapshotCycles = (n: number): number => Math.max(1, Math.round(n / 4));

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'transfers',
    label: () => 'ETH transfer, 1 sender sequential',
    unit: 'tx/s',
    async run(session, n) {
      return checkedTransfers(session, [session.accounts[0]!], n, 0);
    },
  },
  {
    name: 'transfers8',
    label: () => `ETH transfer, ${CONCURRENT_SENDERS} senders concurrent`,
    unit: 'tx/s',
    async run(session, n) {
      return checkedTransfers(session, session.accounts.slice(1, 1 + CONCURRENT_SENDERS), Math.ceil(n / CONCURRENT_SENDERS), 0);
    },
  },
  {
    name: 'erc20',
    label: () => 'ERC-20 transfer, sequential',
    unit: 'tx/s',
    usesToken: true,
    async run(session, n) {
      const token = await session.token();
      const owner = session.accounts[0]!;
      const raws = await session.presign(owner, n, { to: token, gasLimit: TOKEN_TRANSFER_GAS, data: encodeTransfer(RECIPIENT, 1n) });
      const check = await session.expectTransfers([owner], n, () => session.tokenBalance(token, RECIPIENT), 1n);
      const measurement = await timed(n, () => sendAll(session, raws));
      await check();
      return measurement;
    },
  },
  {
    name: 'call',
    label: () => 'eth_call balanceOf, sequential',
    unit: 'calls/s',
    usesToken: true,
    async run(session, n) {
      const call = { to: await session.token(), data: encodeBalanceOf(session.accounts[0]!.address) };
      return timed(n, async () => {
        for (let i = 0; i < n; i++) {
          const result = asData('eth_call', await session.client.request('eth_call', [call, 'latest']));
          if (result.length !== 66) throw new RpcError('eth_call', undefined, `balanceOf returned ${result}`);
        }
      });
    },
  },
  {
    // What ethers and viem ask before every contract transaction that names no gas limit.
    name: 'estimate',
    label: () => 'eth_estimateGas of an ERC-20 transfer, sequential',
    unit: 'calls/s',
    usesToken: true,
    async run(session, n) {
      const request = { from: session.accounts[0]!.address, to: await session.token(), data: encodeTransfer(RECIPIENT, 1n) };
      return timed(n, async () => {
        for (let i = 0; i < n; i++) {
          const gas = asQuantity('eth_estimateGas', await session.client.request('eth_estimateGas', [request]));
          if (gas <= 21_000n || gas > TOKEN_TRANSFER_GAS) throw new RpcError('eth_estimateGas', undefined, `estimated ${gas} gas for a token transfer`);
        }
      });
    },
  },
  {
    name: 'snapshot',
    label: (n) => `snapshot → transfer → receipt → revert, ${snapshotCycles(n)} cycles`,
    unit: 'cycles/s',
    async run(session, n) {
      // Every revert restores the nonce, so all cycles reuse it; the value differs
      // per cycle so each cycle sends a new transaction, as a test suite would.
      const sender = session.accounts[0]!;
      const cycles = snapshotCycles(n);
      const [before, fees, balanceBefore] = [await session.nonce(sender), await session.txFees(), await session.balance(RECIPIENT)];
      const raws = Array.from({ length: cycles }, (_, i) =>
        session.signer.sign(sender, { to: RECIPIENT, nonce: before, gasLimit: TRANSFER_GAS, value: BigInt(i + 1), fees }),
      );
      const measurement = await timed(cycles, async () => {
        for (const raw of raws) {
          const id = await session.client.request('evm_snapshot');
          await session.sendAndConfirm(raw, true);
          if ((await session.client.request('evm_revert', [id])) !== true) {
            throw new RpcError('evm_revert', undefined, `snapshot ${String(id)} was not reverted`);
          }
        }
      });
      const after = await session.nonce(sender);
      if (after !== before) throw new Error(`nonce moved from ${before} to ${after} across reverts`);
      const balanceAfter = await session.balance(RECIPIENT);
      if (balanceAfter !== balanceBefore) throw new Error(`the recipient's balance moved from ${balanceBefore} to ${balanceAfter} across reverts`);
      return measurement;
    },
  },
  {
    // Hook for the "large chain" case: builds N blocks of token transfers
    // (un-timed), then times whole-range queries over their Transfer logs.
    name: 'logs',
    label: (n) => `eth_getLogs over ${n} token-transfer blocks`,
    unit: 'ms/query',
    optIn: true,
    usesToken: true,
    async run(session, n) {
      const token = await session.token();
      const data = encodeTransfer(RECIPIENT, 1n);
      await sendAll(session, await session.presign(session.accounts[0]!, n, { to: token, gasLimit: TOKEN_TRANSFER_GAS, data }));
      const filter = { fromBlock: '0x0', toBlock: 'latest', address: token, topics: [TRANSFER_TOPIC] };
      const queries = 10;
      return timed(queries, async () => {
        for (let i = 0; i < queries; i++) {
          const logs = await session.client.request('eth_getLogs', [filter]);
          if (!Array.isArray(logs) || logs.length < n) throw new RpcError('eth_getLogs', undefined, `expected >= ${n} logs`);
        }
      });
    },
  },
];

/**
 * Mine `count` empty blocks in one call: hardhat_mine (Hardhat, Anvil 1.7.1 and chain-sim
 * take a hex count) or, where it is refused, Ganache's evm_mine({ blocks }). A call the
 * client gave up on (its 30 s socket timeout) is reported as such, not retried in another form.
 */
async function mineEmpty(session: Session, count: number): Promise<void> {
  try {
    await session.client.request('hardhat_mine', [`0x${count.toString(16)}`]);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    if (error.code === undefined) throw new Error(`hardhat_mine of ${count} blocks did not finish: ${error.message}`);
    await session.client.request('evm_mine', [{ blocks: count }]);
  }
}

async function blockByNumber(session: Session, tag: number | 'latest'): Promise<Record<string, unknown>> {
  const ref = tag === 'latest' ? tag : `0x${tag.toString(16)}`;
  return asRecord('eth_getBlockByNumber', await session.client.request('eth_getBlockByNumber', [ref, false]));
}

/** Fund an address without a transaction: hardhat_setBalance, or Ganache's evm_setAccountBalance. */
async function setBalance(session: Session, address: string, wei: bigint): Promise<void> {
  try {
    await session.client.request('hardhat_setBalance', [address, `0x${wei.toString(16)}`]);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    await session.client.request('evm_setAccountBalance', [address, `0x${wei.toString(16)}`]);
  }
}

/** evm_setAutomine, or Ganache's miner_stop / miner_start. */
async function setAutomine(session: Session, on: boolean): Promise<void> {
  try {
    await session.client.request('evm_setAutomine', [on]);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    await session.client.request(on ? 'miner_start' : 'miner_stop');
  }
}

/** Opt-in rows from the control and filter issues; each is one measurement of a fixed size. */
export const EXTRA_WORKLOADS: readonly Workload[] = [
  {
    // Issue 9: no slowdown as the chain grows. Compare with the `transfers` row (a fresh chain's first N).
    name: 'transfersLate',
    label: (n) => `ETH transfer, 1 sender sequential, the last ${n.toLocaleString('en')} of ${(10 * n).toLocaleString('en')}`,
    unit: 'tx/s',
    optIn: true,
    async run(session, n) {
      return checkedTransfers(session, [session.accounts[0]!], n, 9 * n);
    },
  },
  {
    // Automine off, 1,000 transfers pooled, then one evm_mine: interval mining's and batch tests' pattern.
    name: 'block1000',
    label: () => 'mine one block of 1,000 pooled ETH transfers (automine off, then evm_mine)',
    unit: 'ms/query',
    optIn: true,
    async run(session) {
      const count = 1000;
      const raws = await session.presign(session.accounts[0]!, count, { to: RECIPIENT, gasLimit: TRANSFER_GAS, value: 1n });
      await setAutomine(session, false);
      try {
        for (const raw of raws) await session.client.request('eth_sendRawTransaction', [raw]);
        const measurement = await timed(1, async () => {
          await session.client.request('evm_mine');
        });
        const mined = (await blockByNumber(session, 'latest')).transactions;
        if (!Array.isArray(mined) || mined.length !== count) {
          throw new RpcError('eth_getBlockByNumber', undefined, `the block holds ${Array.isArray(mined) ? mined.length : '?'} of ${count} transactions`);
        }
        return measurement;
      } finally {
        await setAutomine(session, true);
      }
    },
  },
  {
    name: 'mine100k',
    label: () => 'mine 100,000 empty blocks in one call',
    unit: 'ms/query',
    optIn: true,
    async run(session) {
      return timed(1, () => mineEmpty(session, 100_000));
    },
  },
  {
    // Mining is only half the cost where blocks are built lazily: read the head and a block
    // half-way, and check the half-way block's parent link (Hardhat's lazily reserved blocks
    // are not linked: this check fails there, and the row says so).
    name: 'mine100kRead',
    label: () => 'mine 100,000 then read the head block and block 50,001 (parent link checked)',
    unit: 'ms/query',
    optIn: true,
    async run(session) {
      const start = Number(asQuantity('eth_blockNumber', await session.client.request('eth_blockNumber')));
      const middle = start + 50_001;
      return timed(1, async () => {
        await mineEmpty(session, 100_000);
        const head = await blockByNumber(session, 'latest');
        const child = await blockByNumber(session, middle);
        const parent = await blockByNumber(session, middle - 1);
        if (asQuantity('number', head.number) !== BigInt(start + 100_000)) {
          throw new Error(`head is block ${String(head.number)}, expected ${start + 100_000}`);
        }
        if (child.parentHash !== parent.hash) {
          throw new Error(`block ${middle}'s parentHash ${String(child.parentHash)} is not block ${middle - 1}'s hash ${String(parent.hash)}`);
        }
      });
    },
  },
  {
    // Issue 3's shape: 10,000 blocks, one matching Transfer log every 100 blocks.
    name: 'logs10k',
    label: () => 'eth_getLogs over 10,000 blocks, 1 matching log per 100 blocks',
    unit: 'ms/query',
    optIn: true,
    usesToken: true,
    async run(session) {
      const token = await session.token();
      const raws = await session.presign(session.accounts[0]!, 100, { to: token, gasLimit: TOKEN_TRANSFER_GAS, data: encodeTransfer(RECIPIENT, 1n) });
      for (const raw of raws) {
        await session.sendAndConfirm(raw);
        await mineEmpty(session, 99);
      }
      const filter = { fromBlock: '0x0', toBlock: 'latest', address: token, topics: [TRANSFER_TOPIC] };
      const queries = 10;
      return timed(queries, async () => {
        for (let i = 0; i < queries; i++) {
          const logs = await session.client.request('eth_getLogs', [filter]);
          if (!Array.isArray(logs) || logs.length < 100) throw new RpcError('eth_getLogs', undefined, 'expected at least 100 logs');
        }
      });
    },
  },
  {
    // Snapshot cost must not grow with the size of the state: the same cycles after funding 10,000 accounts.
    name: 'snapshot10k',
    label: (n) => `snapshot cycles with 10,000 more funded accounts, ${snapshotCycles(n)} cycles`,
    unit: 'cycles/s',
    optIn: true,
    async run(session, n) {
      for (let i = 1; i <= 10_000; i++) await setBalance(session, `0x${(0xa0000000 + i).toString(16).padStart(40, '0')}`, 10n ** 18n);
      // One untimed snapshot/revert lets each tool settle the new accounts (chain-sim commits its caches to the trie here).
      await session.client.request('evm_revert', [await session.client.request('evm_snapshot')]);
      const snapshot = WORKLOADS.find((w) => w.name === 'snapshot')!;
      return snapshot.run(session, n);
    },
  },
];

/**
 * Un-timed transfers from a dedicated account, so JIT-compiled tools are
 * measured warm rather than on their first few hundred requests.
 */
export async function warmUp(session: Session, count: number): Promise<void> {
  if (count <= 0) return;
  const raws = await session.presign(session.accounts[WARMUP_ACCOUNT]!, count, { to: RECIPIENT, gasLimit: TRANSFER_GAS, value: 1n });
  await sendAll(session, raws);
}
