/**
 * eth_subscribe for one connection (a WebSocket, or an in-process provider): newHeads, logs
 * and newPendingTransactions, pushed as go-ethereum pushes them. Each subscription is a
 * filter of the node's filter manager drained after every chain event, so it sees exactly
 * what a polled filter would: logs of blocks a revert removed come again with `removed: true`.
 */
import type { FilterManager } from '../engine/filters.js';
import type { Chain } from '../engine/chain.js';
import type { LogQuery } from '../engine/logQuery.js';
import type { Dispatcher } from './dispatch.js';
import { encodeQuantity } from './encode.js';
import { formatHeader, formatLog } from './format.js';
import type { Json } from './json.js';

/** Where notifications go: `subscription` is the id eth_subscribe answered. */
export type NotificationSink = (subscription: string, result: Json) => void;

export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions';

const CHAIN_EVENTS = ['block', 'reserved', 'reorg', 'pendingTransaction'] as const;

export class Subscriptions {
  /** Subscription id (the filter's id as QUANTITY) → its filter and what it sends. */
  private readonly active = new Map<string, { readonly filterId: bigint; readonly kind: SubscriptionKind }>();
  private draining = false;
  private readonly drainSoon = (): void => {
    if (this.draining) return;
    this.draining = true;
    // After the event's block is fully in place (several events can come from one mining run).
    queueMicrotask(() => {
      this.draining = false;
      this.drain();
    });
  };

  constructor(
    private readonly chain: Chain,
    private readonly filters: FilterManager,
    private readonly notify: NotificationSink,
  ) {}

  /** `query`: for logs (required then). */
  subscribe(kind: SubscriptionKind, query?: LogQuery): string {
    const lasting = { expires: false };
    const filterId =
      kind === 'newHeads'
        ? this.filters.newBlockFilter(lasting)
        : kind === 'logs'
          ? this.filters.newLogFilter(query!, lasting)
          : this.filters.newPendingTransactionFilter(lasting);
    if (this.active.size === 0) for (const event of CHAIN_EVENTS) this.chain.on(event, this.drainSoon);
    const id = encodeQuantity(filterId);
    this.active.set(id, { filterId, kind });
    return id;
  }

  unsubscribe(id: string): boolean {
    const subscription = this.active.get(id);
    if (!subscription) return false;
    this.active.delete(id);
    this.filters.uninstall(subscription.filterId);
    if (this.active.size === 0) for (const event of CHAIN_EVENTS) this.chain.off(event, this.drainSoon);
    return true;
  }

  /** The connection is gone: every subscription ends. */
  close(): void {
    for (const id of [...this.active.keys()]) this.unsubscribe(id);
  }

  private drain(): void {
    for (const [id, { filterId, kind }] of this.active) {
      let changes;
      try {
        changes = this.filters.changes(filterId);
      } catch {
        continue; // unsubscribed meanwhile
      }
      if (changes.kind === 'logs') {
        for (const found of changes.logs) this.notify(id, formatLog(found.log, found.mined, found.txIndex, found.removed));
      } else if (kind === 'newHeads') {
        for (const hash of changes.hashes) {
          const mined = this.chain.find({ hash });
          if (mined) this.notify(id, formatHeader(mined.block.header, mined.hashHex));
        }
      } else {
        for (const hash of changes.hashes) this.notify(id, hash);
      }
    }
  }
}

/** One client connection: the node's methods with eth_subscribe state of its own, and that state (closed with the connection). */
export interface Connection {
  readonly dispatcher: Dispatcher;
  readonly subscriptions: Subscriptions;
}

/** Opens a connection whose notifications go to `notify` (a WebSocket, or an in-process provider's events). */
export function openConnection(node: { readonly chain: Chain; readonly filters: FilterManager; readonly dispatcher: Dispatcher }, notify: NotificationSink): Connection {
  const subscriptions = new Subscriptions(node.chain, node.filters, notify);
  return { dispatcher: node.dispatcher.withContext({ subscriptions }), subscriptions };
}
