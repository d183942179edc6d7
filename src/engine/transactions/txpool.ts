import type { TypedTransaction } from '@ethereumjs/tx';
import { Capability } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { rejected } from '../util/errors.js';

export interface PooledTransaction {
  readonly tx: TypedTransaction;
  readonly sender: Address;
  readonly hashHex: string;
  /** Arrival order, for FIFO ordering and ties between equal fees. */
  readonly arrival: number;
}

export type PoolOrder = 'fees' | 'fifo';

/** go-ethereum's default price bump for replacing a pending transaction. */
const PRICE_BUMP_PERCENT = 10n;

/**
 * Pending transactions by sender and nonce. The pool knows nothing of state:
 * callers pass a nonce lookup when they ask what is executable.
 */
export class TxPool {
  private readonly bySender = new Map<string, Map<bigint, PooledTransaction>>();
  private readonly byHash = new Map<string, PooledTransaction>();
  private arrivals = 0;

  constructor(public order: PoolOrder = 'fees') {}

  get size(): number {
    return this.byHash.size;
  }

  get(hashHex: string): PooledTransaction | undefined {
    return this.byHash.get(hashHex.toLowerCase());
  }

  all(): PooledTransaction[] {
    return [...this.byHash.values()].sort((a, b) => a.arrival - b.arrival);
  }

  /** One address per sender with pooled transactions. */
  senders(): Address[] {
    const senders: Address[] = [];
    for (const queue of this.bySender.values()) {
      const first = queue.values().next().value;
      if (first) senders.push(first.sender);
    }
    return senders;
  }

  /** Highest nonce + 1 of the sender's consecutive run starting at `stateNonce`. */
  nextNonce(sender: Address, stateNonce: bigint): bigint {
    const queue = this.bySender.get(sender.toString());
    let nonce = stateNonce;
    while (queue?.has(nonce)) nonce++;
    return nonce;
  }

  /** Adds a transaction; returns the transaction it replaced, if any. */
  add(tx: TypedTransaction, sender: Address, hashHex: string): PooledTransaction | undefined {
    if (this.byHash.has(hashHex)) throw rejected('already known');
    const key = sender.toString();
    let queue = this.bySender.get(key);
    if (!queue) {
      queue = new Map();
      this.bySender.set(key, queue);
    }
    const existing = queue.get(tx.nonce);
    if (existing && !outbids(tx, existing.tx)) throw rejected('replacement transaction underpriced');
    if (existing) this.byHash.delete(existing.hashHex);
    const entry: PooledTransaction = { tx, sender, hashHex, arrival: this.arrivals++ };
    queue.set(tx.nonce, entry);
    this.byHash.set(hashHex, entry);
    return existing;
  }

  remove(hashHex: string): PooledTransaction | undefined {
    const entry = this.byHash.get(hashHex.toLowerCase());
    if (!entry) return undefined;
    this.byHash.delete(entry.hashHex);
    const key = entry.sender.toString();
    const queue = this.bySender.get(key);
    queue?.delete(entry.tx.nonce);
    if (queue?.size === 0) this.bySender.delete(key);
    return entry;
  }

  clear(): void {
    this.bySender.clear();
    this.byHash.clear();
  }

  /** Replace the whole content (snapshot restore). */
  replaceAll(entries: readonly PooledTransaction[]): void {
    this.clear();
    for (const entry of entries) {
      const key = entry.sender.toString();
      let queue = this.bySender.get(key);
      if (!queue) this.bySender.set(key, (queue = new Map()));
      queue.set(entry.tx.nonce, entry);
      this.byHash.set(entry.hashHex, entry);
      this.arrivals = Math.max(this.arrivals, entry.arrival + 1);
    }
  }

  /**
   * Transactions that can run now, in block order: per sender a consecutive nonce run
   * starting at the state nonce; across senders by effective tip (or arrival for FIFO).
   * Transactions whose nonce is already used are dropped from the pool.
   */
  executable(stateNonce: (sender: Address) => bigint, baseFee: bigint | undefined): PooledTransaction[] {
    const runs: PooledTransaction[][] = [];
    for (const queue of this.bySender.values()) {
      const first = queue.values().next().value;
      if (!first) continue;
      let nonce = stateNonce(first.sender);
      for (const entry of [...queue.values()]) {
        if (entry.tx.nonce < nonce) this.remove(entry.hashHex);
      }
      const run: PooledTransaction[] = [];
      for (let next = queue.get(nonce); next; next = queue.get(++nonce)) run.push(next);
      if (run.length > 0) runs.push(run);
    }
    const ordered: PooledTransaction[] = [];
    const heads = runs.map(() => 0);
    for (;;) {
      let best = -1;
      for (let i = 0; i < runs.length; i++) {
        const candidate = runs[i]![heads[i]!];
        if (!candidate) continue;
        if (best < 0 || this.before(candidate, runs[best]![heads[best]!]!, baseFee)) best = i;
      }
      if (best < 0) return ordered;
      ordered.push(runs[best]![heads[best]!]!);
      heads[best]!++;
    }
  }

  private before(a: PooledTransaction, b: PooledTransaction, baseFee: bigint | undefined): boolean {
    if (this.order === 'fees') {
      const tipA = effectiveTip(a.tx, baseFee);
      const tipB = effectiveTip(b.tx, baseFee);
      if (tipA !== tipB) return tipA > tipB;
    }
    return a.arrival < b.arrival;
  }
}

export function effectiveTip(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  return tx.getEffectivePriorityFee(baseFee ?? 0n);
}

function feeCaps(tx: TypedTransaction): { cap: bigint; tip: bigint } {
  if (tx.supports(Capability.EIP1559FeeMarket)) {
    const market = tx as TypedTransaction & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    return { cap: market.maxFeePerGas, tip: market.maxPriorityFeePerGas };
  }
  const legacy = tx as TypedTransaction & { gasPrice: bigint };
  return { cap: legacy.gasPrice, tip: legacy.gasPrice };
}

/** go-ethereum's rule: a replacement must raise both fee cap and tip by the price bump. */
function outbids(replacement: TypedTransaction, existing: TypedTransaction): boolean {
  const next = feeCaps(replacement);
  const prev = feeCaps(existing);
  const bump = (value: bigint) => (value * (100n + PRICE_BUMP_PERCENT)) / 100n;
  return next.cap >= bump(prev.cap) && next.tip >= bump(prev.tip);
}
