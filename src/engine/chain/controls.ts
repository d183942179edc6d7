/**
 * The facade's test controls (../chain.ts builds on it): time travel, next-block settings,
 * node settings, accounts and impersonation, state setters, snapshots, reset, state files.
 * Each method is one queued call into the core.
 */
import type { Address } from '@ethereumjs/util';
import type { OwnedAccount } from '../accounts/accounts.js';
import type { MinedBlock } from '../blocks/blocks.js';
import type { ReservedBlocks } from '../blocks/emptyRanges.js';
import { EngineError, rejected } from '../util/errors.js';
import { type UnexplainedState, findUnexplainedState } from '../blocks/exportCheck.js';
import type { ForkPoint } from '../blocks/forkStart.js';
import { type ForkOverlayLookup, restoreForkDeletions, restoreForkPieces } from '../state/forkOverlay.js';
import { type CollectedAccount, type StatePiece, type StateReading, type StepBudget, StateCursor, collectPiece, piecesOf } from '../state/stateReading.js';
import { sweepUnreachable } from '../state/loadSweep.js';
import { isPostMerge } from '../rules/hardforks.js';
import type { EncodedBlock, ImportSummary } from '../blocks/importer.js';
import type { ChainSnapshot, SnapshotSummary } from '../state/snapshots.js';
import type { AccountState, Alloc } from '../state/stateDump.js';
import { ChainBase, type ChainSettings, type PersistableState } from './base.js';
import type { ChainCore } from './core.js';
import * as history from './history.js';
import * as anvil from './anvilControls.js';
import type { ReorgItem } from '../mining/reorg.js';
import * as state from './state.js';
import { type AccountChange, assertTimestamp } from './types.js';

export class ChainControls extends ChainBase {
  increaseTime(seconds: bigint): Promise<bigint> {
    return this.run('increaseTime', (core) => {
      assertTimestamp(core.clock.nowSeconds() + seconds);
      return core.clock.increase(seconds);
    });
  }

  setTime(timestamp: bigint): Promise<void> {
    return this.run('setTime', (core) => {
      assertTimestamp(timestamp);
      core.clock.setTime(timestamp);
    });
  }

  /** The next block's timestamp; it must be later than the head's (or equal, with allowSameTimestamp, as Hardhat allows). */
  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this.run('setNextBlockTimestamp', (core) => {
      const head = core.blocks.headTimestamp;
      if (timestamp < head || (timestamp === head && !core.clock.allowSameTimestamp)) {
        throw new EngineError('invalidInput', `timestamp ${timestamp} is not after the latest block's timestamp ${head}`);
      }
      assertTimestamp(timestamp);
      core.clock.setNext(timestamp);
    });
  }

  /** Blocks `seconds` apart from now on (evm_setBlockTimestampInterval). */
  setBlockTimestampInterval(seconds: bigint): Promise<void> {
    return this.run('setBlockTimestampInterval', (core) => core.clock.setBlockInterval(seconds));
  }

  /** Back to the wall clock's pace; false if no interval was set. */
  removeBlockTimestampInterval(): Promise<boolean> {
    return this.run('removeBlockTimestampInterval', (core) => core.clock.clearBlockInterval());
  }

  /** The clock's offset from the wall clock, as a saved state had it (--state). */
  setClockOffset(offset: bigint): Promise<void> {
    return this.run('setClockOffset', (core) => {
      core.clock.offset = offset;
    });
  }

  setNextBaseFee(fee: bigint | undefined): Promise<void> {
    return this.run('setNextBaseFee', (core) => {
      core.nextBlock = { ...core.nextBlock, baseFeePerGas: fee };
    });
  }

  /** The next block's PREVRANDAO (its mixHash); only after the merge, where the header carries it. */
  setNextPrevRandao(prevRandao: Uint8Array): Promise<void> {
    return this.run('setNextPrevRandao', (core) => {
      if (!isPostMerge(core.nextBlockCommon())) throw rejected('prevRandao can only be set after the merge (hardfork paris or later)');
      core.nextBlock = { ...core.nextBlock, prevRandao };
    });
  }

  /** Change settings that later blocks and answers use (coinbase, gas limit, prices, ...); only the keys given. */
  configure(settings: ChainSettings): Promise<void> {
    return this.run('configure', (core) => {
      if (settings.coinbase !== undefined) core.coinbase = settings.coinbase;
      if (settings.blockGasLimit !== undefined) core.blockGasLimit = settings.blockGasLimit;
      if ('gasPrice' in settings) core.gasPrice = settings.gasPrice;
      if ('extraData' in settings) core.extraData = settings.extraData;
      if (settings.suggestedTip !== undefined) core.suggestedTip = settings.suggestedTip;
      if ('callGasCap' in settings) core.callGasCap = settings.callGasCap;
      if (settings.finalityLag !== undefined) core.finalityLag = settings.finalityLag;
      if (settings.allowSameTimestamp !== undefined) core.clock.allowSameTimestamp = settings.allowSameTimestamp;
      if (settings.impersonateAll !== undefined) core.accounts.impersonateAll = settings.impersonateAll;
      if (settings.emptyBlocks !== undefined) core.emptyBlocks = settings.emptyBlocks;
    });
  }

  // ---- accounts ------------------------------------------------------------------------

  impersonate(address: Address): Promise<void> {
    return this.run('impersonate', (core) => core.accounts.impersonate(address));
  }
  stopImpersonating(address: Address): Promise<boolean> {
    return this.run('stopImpersonating', (core) => core.accounts.stopImpersonating(address));
  }
  /** An owned account (fixtures, a saved state's keys). */
  addOwnedAccount(account: OwnedAccount): Promise<void> {
    return this.run('addOwnedAccount', (core) => core.accounts.addOwned(account));
  }
  /** personal_newAccount / personal_importRawKey: false if the account exists. */
  addLockedAccount(account: OwnedAccount, passphrase: string): Promise<boolean> {
    return this.run('addLockedAccount', (core) => core.accounts.addLocked(account, passphrase));
  }
  addKeylessAccount(address: Address, passphrase: string): Promise<boolean> {
    return this.run('addKeylessAccount', (core) => core.accounts.addKeyless(address, passphrase));
  }
  removeAccount(address: Address, passphrase: string): Promise<boolean> {
    return this.run('removeAccount', (core) => core.accounts.remove(address, passphrase));
  }
  /** Open an owned account's key for `seconds` (personal_unlockAccount); false if it is not ours. */
  unlockAccount(address: Address, passphrase: string, seconds: number): Promise<boolean> {
    return this.run('unlockAccount', (core) => {
      if (!core.accounts.holds(address)) return false;
      core.accounts.locks.unlock(address.toString(), passphrase, seconds);
      return true;
    });
  }
  lockAccount(address: Address): Promise<boolean> {
    return this.run('lockAccount', (core) => {
      if (!core.accounts.holds(address)) return false;
      core.accounts.locks.lock(address.toString());
      return true;
    });
  }

  // ---- state setters -------------------------------------------------------------------

  /** Change an account outside any transaction; no block is mined (as Hardhat and Anvil). */
  modifyAccount(address: Address, change: AccountChange): Promise<void> {
    return this.runFetching('modifyAccount', (core) => state.modifyAccount(core, address, change));
  }
  /** hardhat_setNonce: never lower than the account's, and not while transactions wait in the pool. */
  raiseNonce(address: Address, nonce: bigint): Promise<void> {
    return this.runFetching('raiseNonce', (core) => state.raiseNonce(core, address, nonce));
  }
  setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.runFetching('setStorageAt', (core) => state.setStorageAt(core, address, slot, value));
  }
  /** Write accounts over the current state without mining (chain_loadState, fixtures). */
  loadState(alloc: Alloc): Promise<void> {
    return this.run('loadState', (core) => state.loadState(core, alloc));
  }
  /** Every account of the current state, read in steps (tests; chain_dumpState reads with a limit: stateCapture.ts). */
  async dumpState(): Promise<Map<string, AccountState>> {
    const reading = await this.run('dumpState', async (core) => this.openReading(core, await core.vm.stateManager.getStateRoot(), false));
    const alloc = new Map<string, CollectedAccount>();
    for await (const piece of piecesOf(reading)) collectPiece(alloc, piece);
    return alloc;
  }
  /** Block 0's state (setters since may have changed the live state without a block), to read in steps. */
  genesisState(): Promise<StateReading> {
    return this.run('genesisState', async (core) => this.openReading(core, await state.genesisRoot(core), false));
  }
  /** The live state's root (the caches flushed): tests and diagnostics. */
  stateRoot(): Promise<Uint8Array> {
    return this.run('stateRoot', (core) => core.vm.stateManager.getStateRoot());
  }
  /** What an export of blocks first..last cannot carry (exportCheck.ts). */
  unexplainedState(first: bigint, last: bigint): Promise<UnexplainedState> {
    return this.run('unexplainedState', async (core) => findUnexplainedState(core.blocks, first, last, await core.vm.stateManager.getStateRoot()));
  }

  // ---- snapshots, reset, state files ---------------------------------------------------

  snapshot(): Promise<number> {
    return this.run('snapshot', (core) => history.snapshot(core));
  }
  /** The live snapshots, oldest first: a queued read, so it sees every snapshot and revert sent before it. */
  snapshots(): Promise<SnapshotSummary[]> {
    return this.run('snapshots', (core) => core.snapshots.list());
  }
  /** Go back to a snapshot; false when the id is unknown. `consume` gives evm_revert's one-shot semantics. */
  revert(id: number, consume: boolean): Promise<boolean> {
    return this.run('revert', (core) => history.revert(core, id, consume));
  }
  /** A state point outside the snapshot registry (loadFixture keeps these across reverts). */
  statePoint(): Promise<ChainSnapshot> {
    return this.run('statePoint', (core) => core.pinnedPoint());
  }
  /** Re-attach a recorded segment when the chain is exactly at `from`, and move to `to`; false otherwise. */
  replay(from: ChainSnapshot, to: ChainSnapshot, blocks: readonly MinedBlock[]): Promise<boolean> {
    return this.run('replay', (core) => history.replay(core, from, to, blocks));
  }
  /** hardhat_reset / anvil_reset (chain/history.ts): the configured mining mode comes back too. */
  reset(base?: { readonly fork: ForkPoint | undefined }): Promise<void> {
    return this.run('reset', (core) => history.reset(core, base));
  }
  /** Replace the whole chain with blocks saved by an earlier run (--state); the caller loads the matching state. */
  adoptSavedBlocks(saved: readonly (MinedBlock | ReservedBlocks)[]): Promise<void> {
    return this.run('adoptSavedBlocks', (core) => history.adoptSavedBlocks(core, saved));
  }
  /** Execute and append blocks from a chain file (--import; see importer.ts). */
  importBlocks(source: AsyncIterable<EncodedBlock>): Promise<ImportSummary> {
    return this.run('importBlocks', (core) => history.importBlocks(core, source));
  }
  /**
   * What a save writes, every field read in one task so they describe the same moment; the
   * accounts are read afterwards in steps, at this moment's state root (stateReading.ts).
   * `withForkOverlay`: read them as a fork's overlay on the upstream's state (forkOverlay.ts).
   */
  persistable(withForkOverlay = false): Promise<PersistableState> {
    return this.run('persistable', async (core) => {
      return {
        // The rules the next block is mined under: what a chain started from this file continues with.
        // Not the VM's Common: with a fork schedule it sits on whichever block it last ran.
        hardfork: core.nextBlockCommon().hardfork(),
        gasLimit: core.blockGasLimit,
        timestamp: core.blocks.headTimestamp,
        clockOffset: core.clock.offset,
        privateKeys: core.accounts.list().map((address) => core.accounts.privateKeyOf(address)!),
        accounts: await this.openReading(core, await core.vm.stateManager.getStateRoot(), withForkOverlay),
        // Blocks are immutable and a run is a few fields: the list can be written after the task.
        segments: core.blocks.segments(),
      };
    });
  }
  /**
   * A reading of the state at `root` (inside a task): a copy of the state manager set to it, read
   * in steps that are each a task of their own, by the caller (the facade's `run`).
   */
  private async openReading(core: ChainCore, root: Uint8Array, overlay: boolean): Promise<StateReading> {
    const copy = core.state.shallowCopy(false);
    await copy.setStateRoot(root);
    const cursor = new StateCursor(core.trieNodes, copy, root, core.state.writtenKeys(), overlay);
    return {
      stateRoot: root,
      next: (budget?: StepBudget) => this.run('readState', () => cursor.step(budget)),
      rewind: () => cursor.rewind(),
    };
  }
  /**
   * Apply pieces of a saved state (stateReading.ts) over the current state, in order: an account's
   * fields replace it (storage emptied), its storage pieces follow. Each call is one task, flushed
   * at its end, so a restore of any size goes in bounded batches.
   */
  loadPieces(pieces: readonly StatePiece[]): Promise<void> {
    return this.run('loadPieces', (core) => core.state.loadPieces(pieces));
  }
  /**
   * Around a restore in batches at start-up (nothing else writes meanwhile): `begin` opens the
   * trie's write log, `end` deletes the nodes written since that the state now does not reach
   * (each batch's flush left its intermediate nodes behind); answers how many were deleted.
   */
  beginBulkLoad(): Promise<number> {
    return this.run('beginBulkLoad', (core) => core.trieNodes.mark());
  }
  endBulkLoad(mark: number): Promise<number> {
    return this.run('endBulkLoad', async (core) =>
      sweepUnreachable(core.trieNodes, mark, await core.vm.stateManager.getStateRoot(), core.snapshots.size === 0),
    );
  }
  /**
   * A saved fork's local changes, written over the fork's start state (forkOverlay.ts): first the
   * deleted accounts, then the accounts in batches of pieces, each one task flushed at its end
   * (inside beginBulkLoad/endBulkLoad, as `loadPieces`).
   */
  restoreForkDeletions(deleted: readonly string[]): Promise<void> {
    return this.run('restoreForkDeletions', (core) => restoreForkDeletions(core.state, deleted));
  }
  restoreForkPieces(pieces: readonly StatePiece[], facts: ForkOverlayLookup): Promise<void> {
    return this.run('restoreForkPieces', (core) => restoreForkPieces(core.state, pieces, facts));
  }
  /** anvil_impersonateSignature: ECRECOVER answers `address` for `signature` from now on (signatureOverrides.ts). */
  impersonateSignature(signature: Uint8Array, address: Address): Promise<void> {
    return this.run('impersonateSignature', (core) => {
      core.signatures.add(signature, address);
      core.pending.cached = undefined; // the pending block may have run a check the override changes
    });
  }
  /** anvil_setChainId; a reset goes back to the configured id. */
  setChainId(chainId: bigint): Promise<void> {
    return this.run('setChainId', (core) => core.setChainId(chainId));
  }
  /** tenderly_setBalance / tenderly_addBalance: each balance set to, or raised by, `amount`, all or none; answers the new state root. */
  changeBalances(addresses: readonly Address[], amount: bigint, add: boolean): Promise<Uint8Array> {
    return this.run('changeBalances', (core) => anvil.changeBalances(core, addresses, amount, add));
  }
  /** anvil_rollback: drop the `depth` newest blocks (reorg.ts). */
  rollback(depth: bigint): Promise<void> {
    return this.run('rollback', (core) => anvil.rollback(core, depth));
  }
  /** anvil_reorg: replace the `depth` newest blocks with as many new ones holding `items` (reorg.ts). */
  reorg(depth: bigint, items: readonly ReorgItem[]): Promise<void> {
    return this.run('reorg', (core) => anvil.reorg(core, depth, items));
  }
  /**
   * Tests and diagnostics: `fn` gets the core inside a task (the live VM, the block store), as
   * any queued call does. A queued call made from its synchronous start fails (ReentryError).
   */
  inspect<T>(fn: (core: ChainCore) => T | Promise<T>): Promise<T> {
    return this.run('inspect', fn);
  }
}
