/**
 * A whole state read in bounded steps (issue 35), for saves and dumps of any size: reading it in
 * one task held the queue for the whole reading (a save of 300,000 slots answered nothing for
 * tens of seconds) and built every account at once.
 *
 * A reading is opened at a state root (in the task that captures the rest of the chain), then
 * read by `step`, each call one short task of its own: accounts are read at that root straight
 * from the node database (trieLookup.ts) until a budget of bytes or milliseconds is spent, and
 * handed out as pieces (an account's fields, then its storage slots in batches), so one huge
 * account never needs one huge object. Between steps the queue serves everything else. Blocks mined meanwhile
 * write new trie nodes and never change the root's (nodes are content-addressed). A revert is the
 * exception: it deletes the nodes first written since its snapshot (trieDb.ts). The deleted nodes
 * are a suffix of the write log and a node is logged after every node it refers to, so the root
 * read is either whole or its own node is freed: each step first checks that node, and fails with
 * StateReadingLost if it is (the caller reads the state as it now is). A freed node may still be
 * there, deferred while a reader outside the queue holds a lease (trieDb.ts), and be deleted
 * when that reader ends, at any time: the check counts it as gone. Rewinds run in tasks only,
 * so nothing is freed during a step.
 *
 * Which addresses and slots to read comes from the written keys (the trie hashes its keys),
 * iterated as they are, never copied or sorted: an entry added during the reading is visited too,
 * and skipped, as it is absent at the root read.
 */
import { CODEHASH_PREFIX, type MerkleStateManager } from '@ethereumjs/statemanager';
import {
  bytesToBigInt,
  bytesToUnprefixedHex,
  concatBytes,
  createAddressFromString,
  equalsBytes,
  hexToBytes,
  KECCAK256_NULL,
  setLengthLeft,
} from '@ethereumjs/util';
import { EngineError } from '../util/errors.js';
import { TOMBSTONE_RLP, ZERO_SLOT, type ForkAwareStateManager } from './forkState.js';
import { decodeRlpList } from './nodeRlp.js';
import type { TrieNodeDB } from './trieDb.js';
import { type StoredNodes, TrieReader, rlpBytes } from './trieLookup.js';
import { EMPTY_TRIE_ROOT } from './trieRoot.js';

/** An account's fields; its storage follows in `storage` pieces of the same address. */
export interface AccountPiece {
  readonly kind: 'account';
  readonly address: string;
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly code: Uint8Array;
  /** On a fork's overlay: the account's storage continues the upstream's (slots not written here are the upstream's). */
  readonly upstreamStorage?: boolean;
}

/** Slots of the account of the last `account` piece: 32-byte slot (0x hex) and its non-zero value (32 bytes). */
export interface StoragePiece {
  readonly kind: 'storage';
  readonly address: string;
  readonly slots: readonly (readonly [slot: string, value: Uint8Array])[];
}

/** On a fork's overlay only: an account deleted here, and slots zeroed here over the upstream's storage. */
export interface OverlayPiece {
  readonly kind: 'deleted' | 'zeroSlots';
  readonly address: string;
  readonly slots?: readonly string[];
}

export type StatePiece = AccountPiece | StoragePiece | OverlayPiece;

/** How much one step reads at most: about `bytes` of account data, for about `ms` (one account's code may pass either). */
export interface StepBudget {
  readonly bytes: number;
  readonly ms: number;
}

/** A step's default: short enough that other requests wait at most about this long behind it. */
export const STEP_BUDGET: StepBudget = { bytes: 1 << 20, ms: 10 };

/** What a slot, an account without code and a piece cost against the byte budget (about their JSON's size). */
const SLOT_BYTES = 140;
const ACCOUNT_BYTES = 120;
/** A key absent at the root read costs its lookup only. */
const ABSENT_BYTES = 16;

/** The state read was reverted away between two steps (its trie nodes were freed): read the state again. */
export class StateReadingLost extends EngineError {
  constructor() {
    super('rejected', 'the state being read was reverted away (a snapshot older than it was reverted to) while it was read: read it again');
    this.name = 'StateReadingLost';
  }
}

interface OpenAccount {
  readonly address: string;
  readonly storage: TrieReader;
  readonly slots: Iterator<string>;
  /** Slots zeroed here over the upstream's storage (overlay only), sent after the last storage piece. */
  readonly zeros: string[] | undefined;
}

/**
 * Reads the accounts of one state root in steps (see the module comment), straight from the
 * node database (trieLookup.ts). `keys` are the written keys of the live state manager; `copy`
 * a copy of it at the root (no caches), for what a fork's overlay asks of it.
 */
export class StateCursor {
  private accounts: Iterator<[string, ReadonlySet<string>]>;
  private open: OpenAccount | undefined;
  private done = false;
  private readonly stored: StoredNodes;
  private readonly state: TrieReader;

  constructor(
    private readonly nodes: TrieNodeDB,
    private readonly copy: MerkleStateManager,
    readonly root: Uint8Array,
    private readonly keys: ReadonlyMap<string, ReadonlySet<string>>,
    /** A fork's overlay: tombstones, storage continuing the upstream's and zeroed slots are read as such. */
    private readonly overlay: boolean,
  ) {
    this.accounts = keys.entries();
    this.stored = (key) => nodes.stored(key);
    this.state = new TrieReader(this.stored, root);
  }

  /** Read from the first account again (a second pass over the same root). */
  rewind(): void {
    this.accounts = this.keys.entries();
    this.open = undefined;
    this.done = false;
  }

  /**
   * The next pieces; an empty list when the budget ran out on accounts or slots absent at the
   * root; undefined once every account has been read. Call inside a task.
   */
  async step(budget: StepBudget = STEP_BUDGET): Promise<StatePiece[] | undefined> {
    if (this.done) return undefined;
    // Rewound: deleted, or kept only while a reader outside the queue holds a lease (trieDb.ts).
    if (!equalsBytes(this.root, EMPTY_TRIE_ROOT) && !this.nodes.holds(bytesToUnprefixedHex(this.root))) throw new StateReadingLost();
    const started = performance.now();
    const pieces: StatePiece[] = [];
    let bytes = 0;
    const spend = (cost: number): boolean => {
      bytes += cost;
      return bytes >= budget.bytes || performance.now() - started >= budget.ms;
    };
    let spent = false;
    while (!spent) {
      if (this.open) {
        spent = this.readSlots(this.open, pieces, spend);
        continue;
      }
      const next = this.accounts.next();
      if (next.done) {
        this.done = true;
        break;
      }
      spent = spend(await this.openAccount(next.value[0], next.value[1], pieces));
    }
    return this.done && pieces.length === 0 ? undefined : pieces;
  }

  /** Start an account: its fields as a piece (nothing if it does not exist at the root); the cost. */
  private async openAccount(addressHex: string, slots: ReadonlySet<string>, pieces: StatePiece[]): Promise<number> {
    const address = createAddressFromString(addressHex);
    const rlp = this.state.get(address.bytes);
    if (rlp === undefined) return ABSENT_BYTES; // not at this root (written later, or deleted), or on a fork: the upstream's, untouched
    if (this.overlay && equalsBytes(rlp, TOMBSTONE_RLP)) {
      pieces.push({ kind: 'deleted', address: addressHex });
      return ACCOUNT_BYTES;
    }
    const [nonce, balance, storageRoot, codeHash] = decodeRlpList(rlp) as Uint8Array[];
    let code: Uint8Array = new Uint8Array();
    if (!equalsBytes(codeHash!, KECCAK256_NULL)) {
      // A fork's account may run the upstream's code, which its state manager holds.
      code = this.stored(bytesToUnprefixedHex(concatBytes(CODEHASH_PREFIX, codeHash!))) ?? (await this.copy.getCode(address));
    }
    const upstreamStorage = this.overlay ? await (this.copy as ForkAwareStateManager).isForkBacked(storageRoot!) : undefined;
    pieces.push({ kind: 'account', address: addressHex, balance: bytesToBigInt(balance!), nonce: bytesToBigInt(nonce!), code, upstreamStorage });
    if (slots.size > 0 && !equalsBytes(storageRoot!, EMPTY_TRIE_ROOT)) {
      this.open = { address: addressHex, storage: new TrieReader(this.stored, storageRoot!), slots: slots.values(), zeros: this.overlay ? [] : undefined };
    }
    return ACCOUNT_BYTES + 2 * code.length;
  }

  /** Slots of the open account, as one piece, until `spend` says the step's budget is spent (its answer). */
  private readSlots(open: OpenAccount, pieces: StatePiece[], spend: (cost: number) => boolean): boolean {
    const slots: [string, Uint8Array][] = [];
    let spent = false;
    while (!spent) {
      const next = open.slots.next();
      if (next.done) {
        this.open = undefined;
        break;
      }
      const raw = open.storage.get(hexToBytes(next.value as `0x${string}`));
      if (raw !== undefined && open.zeros && equalsBytes(raw, ZERO_SLOT)) open.zeros.push(next.value);
      else if (raw !== undefined) {
        const value = rlpBytes(raw);
        if (value.some((b) => b !== 0)) slots.push([next.value, setLengthLeft(value, 32)]);
      }
      spent = spend(raw === undefined ? ABSENT_BYTES : SLOT_BYTES);
    }
    if (slots.length > 0) pieces.push({ kind: 'storage', address: open.address, slots });
    if (!this.open && open.zeros && open.zeros.length > 0) pieces.push({ kind: 'zeroSlots', address: open.address, slots: open.zeros });
    return spent;
  }
}

/** A reading as the chain's facade hands it out: each `next` is one queued task (Chain.openStateReading). */
export interface StateReading {
  /** The state root read. */
  readonly stateRoot: Uint8Array;
  /**
   * The next pieces (possibly none, when a step found only absent keys); undefined at the end.
   * Fails with StateReadingLost if the state was reverted away since the reading was opened.
   */
  next(budget?: StepBudget): Promise<StatePiece[] | undefined>;
  /** Read from the first account again, at the same root. */
  rewind(): void;
}

/**
 * Every piece of a reading, in order (each step a task of its own). Between steps the event
 * loop turns (setImmediate): steps chained by promises alone would keep sockets and timers
 * waiting until the consumer's next write, and a request that arrives meanwhile would wait
 * for many steps instead of one.
 */
export async function* piecesOf(reading: StateReading, budget?: StepBudget): AsyncGenerator<StatePiece> {
  for (let pieces = await reading.next(budget); pieces; pieces = await reading.next(budget)) {
    yield* pieces;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** An account's content, as a dump holds it. */
export interface CollectedAccount {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly code: Uint8Array;
  readonly storage: Map<string, Uint8Array>;
}

/** Add `piece` to a dump being collected (overlay facts are left out: a dump of accounts has no place for them). */
export function collectPiece(alloc: Map<string, CollectedAccount>, piece: StatePiece): void {
  if (piece.kind === 'account') alloc.set(piece.address, { balance: piece.balance, nonce: piece.nonce, code: piece.code, storage: new Map() });
  else if (piece.kind === 'storage') {
    const storage = alloc.get(piece.address)!.storage;
    for (const [slot, value] of piece.slots) storage.set(slot, value);
  }
}
