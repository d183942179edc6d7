/**
 * The database under the state trie and every storage trie (they share it: ethereumjs'
 * storage tries are shallow copies of the state trie, with prefixed keys).
 *
 * Flat keys. @ethereumjs keys it by hex strings that it builds two characters at a time,
 * and V8 keeps such strings as ropes of ~30 linked pieces: stored as Map keys for the life
 * of the chain, they were about a sixth of the memory a block adds. Keys are copied into
 * flat strings when stored (lookups need no copy).
 *
 * Freeing what a revert abandons. Nodes are addressed by their hash and never overwritten,
 * so a state root names a whole state and a snapshot only needs its root. Without more, the
 * nodes written after a snapshot stayed after reverting to it: a suite that reverts after
 * every test grew by every test's state. While a mark is open, each node the database did
 * not have before is logged; rewinding to a mark deletes the nodes first written after it.
 * That is safe when nothing still needs a state from after the mark: the caller drops those
 * blocks and states, and pins the states it keeps (loadFixture's end points), which keeps
 * every node logged so far.
 *
 * Readers outside the queue. Work on a past state that runs outside the chain's queue (a
 * trace, a call at an old block: docs/architecture.md) holds a lease while it runs. A rewind
 * while any lease is held frees nothing yet: its nodes wait in a deferred set, deleted when
 * the last lease ends, so a reader never finds a node of its state (or one it wrote itself)
 * gone. A deferred node written again meanwhile (content-addressed: the same node, needed
 * again) leaves the set and counts as first written now.
 */
import { MapDB } from '@ethereumjs/util';

/** The nodes and their write log, shared by the database and its shallow copies. */
class NodeStore {
  readonly nodes = new Map<string, Uint8Array>();
  /** Keys first written since the log was opened, in order (undefined: no mark is open). */
  added: string[] | undefined;
  /** Entries of `added` below this index are never freed. */
  pinned = 0;
  /** Leases held by readers outside the queue (lease()). */
  readers = 0;
  /** Nodes rewound while a lease was held: deleted when the last one ends. */
  readonly deferred = new Set<string>();
}

export class TrieNodeDB extends MapDB<string, Uint8Array> {
  constructor(private readonly store = new NodeStore()) {
    super(store.nodes);
  }

  override async put(key: string, value: Uint8Array): Promise<void> {
    const flat = Buffer.from(key, 'latin1').toString('latin1');
    const { nodes, added, deferred } = this.store;
    const fresh = !nodes.has(flat) || (deferred.size > 0 && deferred.delete(flat));
    if (added && fresh) added.push(flat);
    nodes.set(flat, value);
  }

  /** Shares the nodes and the log (MapDB's own copy would write around both). */
  override shallowCopy(): TrieNodeDB {
    return new TrieNodeDB(this.store);
  }

  get size(): number {
    return this.store.nodes.size;
  }

  /** A point to rewind to: nodes first written after it can be freed. */
  mark(): number {
    this.store.added ??= [];
    return this.store.added.length;
  }

  /** Keep every node written so far, whatever is rewound later. */
  pin(): void {
    if (this.store.added) this.store.pinned = this.store.added.length;
  }

  /** Delete the nodes first written after `mark`, except pinned ones; the mark stays usable. */
  rewind(mark: number): void {
    const { added, nodes } = this.store;
    if (!added) return;
    const from = Math.max(mark, this.store.pinned);
    if (from >= added.length) return;
    if (this.store.readers > 0) for (let i = from; i < added.length; i++) this.store.deferred.add(added[i]!);
    else for (let i = from; i < added.length; i++) nodes.delete(added[i]!);
    added.length = from;
  }

  /** The keys first written since `mark`, oldest first (none while no mark is open). */
  loggedSince(mark: number): string[] {
    return this.store.added?.slice(mark) ?? [];
  }

  /** A stored node or code, read synchronously (undefined: not stored). */
  stored(key: string): Uint8Array | undefined {
    return this.store.nodes.get(key);
  }

  /**
   * Whether `key` is stored and not freed by a rewind: a rewound node stays while a lease is
   * held, but a state whose root it is has been reverted away (stateReading.ts checks its root).
   */
  holds(key: string): boolean {
    return this.store.nodes.has(key) && !this.store.deferred.has(key);
  }

  /** Delete `keys`, entries first written since `mark` that nothing needs, and forget the log since `mark`. */
  forget(keys: Iterable<string>, mark: number): void {
    const { added, nodes, deferred } = this.store;
    for (const key of keys) {
      if (this.store.readers > 0) deferred.add(key);
      else nodes.delete(key);
    }
    if (added && added.length > mark) added.length = Math.max(mark, this.store.pinned);
  }

  /**
   * Hold every node until the returned function is called (once; later calls do nothing):
   * rewinds meanwhile defer their deletions.
   */
  lease(): () => void {
    const store = this.store;
    store.readers++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--store.readers > 0 || store.deferred.size === 0) return;
      for (const key of store.deferred) store.nodes.delete(key);
      store.deferred.clear();
    };
  }

  /** Nodes a rewind freed while a lease was held, still kept (tests, diagnostics). */
  get deferredSize(): number {
    return this.store.deferred.size;
  }

  /** No mark is open any more: stop logging (the nodes written so far stay). */
  closeLog(): void {
    this.store.added = undefined;
    this.store.pinned = 0;
  }
}
