// Proof-of-work mode: hands out work for the pending block (chain_getWork) and
// turns verified solutions (chain_submitWork) into blocks or uncle candidates,
// as go-ethereum's remote sealer does.
import { toHex } from '../util/hex.js';
import type { Chain, PowView } from '../chain.js';
import { assertMinable } from '../mining/clock.js';
import { rejected } from '../util/errors.js';
import type { MinedBlock } from '../blocks/blocks.js';
import { nextDifficulty, type DifficultySetting } from './difficulty.js';
import { sealDraft } from './draft.js';
import type { EthashCacheStore } from './cacheStore.js';
import { HashrateMeter } from './hashrate.js';
import { epochOf, seedHash } from './params.js';
import { boundaryOf, verifySeal } from './seal.js';
import { sealHashOf } from './sealHash.js';
import { type CanonicalView, MAX_UNCLE_DEPTH, UncleCandidates } from './uncles.js';
import { type Work, WorkBook } from './work.js';

export interface PowSealerOptions {
  readonly difficulty: DifficultySetting;
  readonly cacheStore: EthashCacheStore;
  /** Milliseconds, like Date.now (hashrate freshness). */
  readonly wallClock?: () => number;
}

/** Start building the next epoch's cache this many blocks before it begins. */
const PREPARE_AHEAD = 100n;

export class PowSealer {
  readonly hashrate: HashrateMeter;
  private readonly works = new WorkBook();
  private readonly uncles = new UncleCandidates();
  private active = true;
  private readonly closers: Array<() => void> = [];

  constructor(
    private readonly chain: Chain,
    private readonly options: PowSealerOptions,
  ) {
    this.hashrate = new HashrateMeter(options.wallClock);
    // A revert frees the states built since its snapshot, drafts' included: their work cannot be sealed.
    const forget = (): void => this.works.clear();
    chain.on('rewound', forget);
    this.onClose(() => chain.off('rewound', forget));
    // Load or build the cache in the background now: getWork never needs it, and by the
    // time a miner has a solution it is there (the first submitWork would wait otherwise).
    this.prepareCaches(chain.head.number + 1n);
  }

  /** False after miner_stop: no work is handed out and solutions are refused. */
  get mining(): boolean {
    return this.active;
  }

  start(): void {
    this.active = true;
  }

  stop(): void {
    this.active = false;
  }

  /** The work for the pending block: the same until the head, the state, the pool or the block settings change. */
  getWork(): Promise<Work> {
    if (!this.active) return Promise.reject(rejected('no mining work available yet'));
    return this.chain.powWork(async (view) => {
      // Forget what can no longer be sealed or included first: the key below counts uncle candidates.
      this.works.prune(view.head.number);
      this.uncles.prune(view.head.number + 1n);
      const baseRoot = await view.stateRoot();
      const key = [view.head.hashHex, toHex(baseRoot), view.settingsKey(), this.uncles.version].join('|');
      const current = this.works.current;
      if (current?.key === key) return current;
      const work = await this.buildWork(view, key, baseRoot);
      this.works.add(work);
      return work;
    });
  }

  /**
   * Seal the work `powHash` names with this nonce and mix digest. True when the
   * solution is valid and became the new head, an uncle candidate, or already was
   * the block it names; false for unknown or stale work and invalid solutions.
   */
  async submitWork(nonce: Uint8Array, powHash: Uint8Array, mixDigest: Uint8Array): Promise<boolean> {
    if (!this.active) return false;
    const work = this.works.get(toHex(powHash));
    if (!work) return false;
    const cache = await this.options.cacheStore.get(work.epoch);
    if (!verifySeal(cache, work.epoch, work.powHash, nonce, mixDigest, work.difficulty)) return false;
    const sealed = sealDraft(work.draft, nonce, mixDigest, this.chain.common);
    if (await this.chain.adoptBlock(sealed, work.baseRoot)) {
      this.works.prune(sealed.mined.number);
      return true;
    }
    return this.keepAsUncle(sealed.mined);
  }

  submitHashrate(rate: bigint, id: Uint8Array): void {
    this.hashrate.submit(toHex(id), rate);
  }

  /** Run `fn` on close (the built-in miner stops its threads). */
  onClose(fn: () => void): void {
    this.closers.push(fn);
  }

  close(): void {
    this.active = false;
    for (const fn of this.closers.splice(0)) fn();
    this.options.cacheStore.close();
  }

  private async buildWork(view: PowView, key: string, baseRoot: Uint8Array): Promise<Work> {
    const parent = view.head;
    const number = parent.number + 1n;
    const template = view.template();
    assertMinable(template.timestamp);
    const difficulty = nextDifficulty(this.options.difficulty, view.common, parent.block.header, template.timestamp);
    const uncles = this.uncles.select(number, canonicalView(view.blocks));
    const draft = await view.draft({ ...template, difficulty }, uncles, baseRoot);
    const powHash = sealHashOf(draft.mined.block.header.raw());
    const epoch = epochOf(number);
    this.prepareCaches(number);
    return {
      powHash,
      powHashHex: toHex(powHash),
      seedHash: seedHash(epoch),
      boundary: boundaryOf(difficulty),
      epoch,
      difficulty,
      number,
      baseRoot,
      key,
      draft,
    };
  }

  /** A valid solution whose block cannot extend the head: a sibling of a canonical block becomes an uncle candidate. */
  private keepAsUncle(mined: MinedBlock): boolean {
    const { blocks } = this.chain;
    if (blocks.byHashHex(mined.hashHex)) return true; // resubmitted: it already is that block
    const head = this.chain.head.number;
    const parentCanonical = blocks.byNumber(mined.number - 1n)?.hashHex === toHex(mined.block.header.parentHash);
    if (!parentCanonical || mined.number > head || head + 1n - mined.number > MAX_UNCLE_DEPTH) return false;
    this.uncles.add(mined.block.header);
    return true;
  }

  private prepareCaches(number: bigint): void {
    const store = this.options.cacheStore;
    store.prepare(epochOf(number));
    if (epochOf(number + PREPARE_AHEAD) !== epochOf(number)) store.prepare(epochOf(number + PREPARE_AHEAD));
  }
}

function canonicalView(blocks: PowView['blocks']): CanonicalView {
  return {
    hashAt: (n) => blocks.byNumber(n)?.hashHex,
    unclesAt: (n) => blocks.byNumber(n)?.block.uncleHeaders.map((u) => toHex(u.hash())) ?? [],
  };
}
