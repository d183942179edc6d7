/**
 * eth_subscribe for one connection (a WebSocket, or an in-process provider): newHeads, logs
 * and newPendingTransactions, pushed as go-ethereum pushes them. Each subscription is a
 * filter of the node's filter manager drained after every chain event, so it sees exactly
 * what a polled filter would: logs of blocks a revert removed come again with `removed: true`.
 */
import type { FilterManager, TakenChanges } from '../engine/logs/filters.js';
import type { MinedBlock } from '../engine/blocks/blocks.js';
import type { Chain } from '../engine/chain.js';
import type { LogQuery } from '../engine/logs/logQuery.js';
import type { KnownClient } from './clientRules.js';
import type { Dispatcher } from './dispatch.js';
import { encodeQuantity } from './encode.js';
import { RpcError } from './errors.js';
import { formatHeader, formatLog } from './format.js';
import type { Json } from './json.js';

/** Where notifications go: `subscription` is the id eth_subscribe answered. */
export type NotificationSink = (subscription: string, result: Json) => void;

export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions';

const CHAIN_EVENTS = ['block', 'reserved', 'reorg', 'pendingTransaction'] as const;

/** The most subscriptions one connection may hold (eth_subscribe past it is refused with -32000). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;
/** Notifications sent in one go; then other work (requests, other connections) runs before the next slice. */
export const NOTIFICATIONS_PER_SLICE = 256;
/** Bytes queued toward a client above which sending waits until the client has read some. */
export const HIGH_WATER_BYTES = 1024 * 1024;
/** A client that reads nothing for this long while notifications wait is dropped (go-ethereum's write timeout). */
export const STALL_MS = 10_000;

/**
 * How a connection with a socket slows notifications down to what its client reads, and drops
 * a client that has fallen too far behind (the in-process provider has none: its listeners
 * are called at once).
 */
export interface FlowControl {
  /** Bytes handed to the connection and not yet taken by the client. */
  queuedBytes(): number;
  /** Call `resume` once, after the queued bytes have gone down; returns a function that cancels. */
  onceDrained(resume: () => void): () => void;
  /** End the connection, telling the client `reason` where the transport can (a WebSocket close frame). */
  drop(reason: string): void;
  /** Internal: tests shorten the stall timeout. */
  readonly stallMs?: number;
}

/** A client that reads nothing for STALL_MS, or whose backlog overflowed (notifications would be lost), is dropped. */
export const droppedReason = (why: string): string => `subscriber too far behind (${why}): connection dropped`;

export class Subscriptions {
  /** Subscription id (the filter's id as QUANTITY) → its filter and what it sends. */
  private readonly active = new Map<string, { readonly filterId: bigint; readonly kind: SubscriptionKind }>();
  /** 'scheduled': a slice will run; 'waiting': for the client to read (flow control). */
  private state: 'idle' | 'scheduled' | 'waiting' = 'idle';
  private cancelWait: (() => void) | undefined;
  private closed = false;
  /** Where the next slice starts among the subscriptions. */
  private turn = 0;
  /** newHeads of the same block for several subscriptions are formatted once (the most recent few hundred kept). */
  private readonly headers = new Map<string, Json>();
  private readonly wake = (): void => {
    if (this.state === 'waiting') this.dropIfLost();
    if (this.state !== 'idle') return;
    this.state = 'scheduled';
    // After the event's block is fully in place (several events can come from one mining run);
    // a small delivery goes out before the request that mined it is answered, as before.
    queueMicrotask(() => this.slice());
  };

  constructor(
    private readonly chain: Chain,
    private readonly filters: FilterManager,
    private readonly notify: NotificationSink,
    private readonly flow?: FlowControl,
  ) {}

  /** `query`: for logs (required then). */
  subscribe(kind: SubscriptionKind, query?: LogQuery): string {
    if (this.closed) throw new RpcError(-32000, 'subscription refused: this connection is closed');
    if (this.active.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new RpcError(
        -32000,
        `too many subscriptions: at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection (eth_unsubscribe some, or open another connection)`,
      );
    }
    const lasting = { expires: false };
    const filterId =
      kind === 'newHeads'
        ? this.filters.newBlockFilter(lasting)
        : kind === 'logs'
          ? this.filters.newLogFilter(query!, lasting)
          : this.filters.newPendingTransactionFilter(lasting);
    if (this.active.size === 0) for (const event of CHAIN_EVENTS) this.chain.on(event, this.wake);
    const id = encodeQuantity(filterId);
    this.active.set(id, { filterId, kind });
    return id;
  }

  unsubscribe(id: string): boolean {
    const subscription = this.active.get(id);
    if (!subscription) return false;
    this.active.delete(id);
    this.filters.uninstall(subscription.filterId);
    if (this.active.size === 0) for (const event of CHAIN_EVENTS) this.chain.off(event, this.wake);
    return true;
  }

  /** The connection is gone: every subscription ends. */
  close(): void {
    this.closed = true;
    this.cancelWait?.();
    for (const id of [...this.active.keys()]) this.unsubscribe(id);
  }

  /** Send one slice of what the subscriptions have collected, then yield to other work if more waits. */
  private slice(): void {
    this.state = 'idle';
    if (this.closed || this.dropIfLost()) return;
    if (this.flow && this.flow.queuedBytes() >= HIGH_WATER_BYTES) {
      this.waitForClient(this.flow);
      return;
    }
    // Subscriptions take turns (from where the last slice stopped), each its share of the slice,
    // so one with a long backlog does not starve the rest and a slice stays small with many.
    const entries = [...this.active].filter(([, { filterId }]) => this.filters.hasChanges(filterId));
    const share = Math.max(1, Math.floor(NOTIFICATIONS_PER_SLICE / Math.max(1, entries.length)));
    let budget = NOTIFICATIONS_PER_SLICE;
    let turn = 0;
    for (; turn < entries.length && budget > 0; turn++) {
      if (this.closed) return; // a send dropped the connection
      const [id, { filterId, kind }] = entries[(this.turn + turn) % entries.length]!;
      let changes: TakenChanges;
      try {
        changes = this.filters.take(filterId, Math.min(share, budget));
      } catch {
        continue; // unsubscribed meanwhile
      }
      budget -= changes.kind === 'logs' ? changes.logs.length : changes.hashes.length;
      this.send(id, kind, changes);
    }
    this.turn = entries.length === 0 ? 0 : (this.turn + turn) % entries.length;
    const more = entries.some(([, { filterId }]) => this.filters.hasChanges(filterId));
    // Subscriptions at the same height take turns over a few slices: keep the formatted headers that long.
    if (this.headers.size > 4 * NOTIFICATIONS_PER_SLICE) this.headers.clear();
    if (more && !this.closed) {
      this.state = 'scheduled';
      setImmediate(() => this.slice());
    }
  }

  private send(id: string, kind: SubscriptionKind, changes: TakenChanges): void {
    if (changes.kind === 'logs') {
      for (const found of changes.logs) this.notify(id, formatLog(found.log, found.position, found.removed));
    } else if (kind === 'newHeads') {
      const reserved = 'reserved' in changes ? changes.reserved : [];
      const firstReserved = changes.hashes.length - reserved.length;
      changes.hashes.forEach((hash, k) => {
        let header = this.headers.get(hash);
        if (header === undefined) {
          const mined = k < firstReserved ? this.chain.find({ hash }) : this.onChain(reserved[k - firstReserved]!);
          if (!mined) return; // reverted before it was sent
          header = formatHeader(mined.block.header, mined.hashHex);
          this.headers.set(hash, header);
        }
        this.notify(id, header);
      });
    } else {
      for (const hash of changes.hashes) this.notify(id, hash);
    }
  }

  /** The block if it is still on the chain (by number: a reserved block is computed only that far). */
  private onChain(block: MinedBlock): MinedBlock | undefined {
    return this.chain.find({ number: block.number }) === block ? block : undefined;
  }

  /** The client is not reading: resume once it has, or drop it after the stall timeout. */
  private waitForClient(flow: FlowControl): void {
    this.state = 'waiting';
    const stallMs = flow.stallMs ?? STALL_MS;
    const timer = setTimeout(() => this.drop(`${flow.queuedBytes()} bytes unread for ${stallMs / 1000} s`), stallMs);
    let cancelDrained = (): void => {};
    this.cancelWait = () => {
      clearTimeout(timer);
      cancelDrained();
      this.cancelWait = undefined;
    };
    cancelDrained = flow.onceDrained(() => {
      this.cancelWait?.();
      this.state = 'scheduled';
      setImmediate(() => this.slice());
    });
  }

  /** A subscription whose backlog overflowed would silently miss notifications: the client is dropped instead. */
  private dropIfLost(): boolean {
    if (!this.flow) return false;
    for (const { filterId } of this.active.values()) {
      if (this.filters.lostChanges(filterId)) {
        this.drop(`more than ${this.filters.maxBuffered} notifications waiting`);
        return true;
      }
    }
    return false;
  }

  private drop(why: string): void {
    if (this.closed) return;
    this.close();
    this.flow?.drop(droppedReason(why));
  }
}

/** One client connection: the node's methods with eth_subscribe state of its own, and that state (closed with the connection). */
export interface Connection {
  readonly dispatcher: Dispatcher;
  readonly subscriptions: Subscriptions;
}

/**
 * Opens a connection whose notifications go to `notify` (a WebSocket, or an in-process provider's
 * events), answering under the rules of `client` (the one a WebSocket's upgrade request named).
 */
export function openConnection(
  node: { readonly chain: Chain; readonly filters: FilterManager; readonly dispatcher: Dispatcher },
  notify: NotificationSink,
  flow?: FlowControl,
  client?: KnownClient,
): Connection {
  const subscriptions = new Subscriptions(node.chain, node.filters, notify, flow);
  return { dispatcher: node.dispatcher.forClient(client).withContext({ subscriptions }), subscriptions };
}
