/**
 * What a fork fetched, kept on disk by chain id and pinned block (and its hash, so a
 * re-mined chain at the same number is never mistaken for the old one): a second run of
 * the same suite at the same block reads its state from here and asks the upstream
 * nothing about state. Written atomically (temporary file, rename), shortly after new
 * fetches and when the node closes; an unreadable file is ignored (and replaced).
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FetchedState, emptyFetchedState } from './remoteState.js';

const FORMAT = 1;
/** Milliseconds between a fetch and the save it schedules (fetches in a burst share one save). */
const SAVE_DELAY_MS = 500;

export class ForkDiskCache {
  readonly path: string;
  private timer: NodeJS.Timeout | undefined;
  private latest: { state: FetchedState; answers: Map<string, unknown> } | undefined;
  /** The last save's error (reported once, a cache problem never fails a request). */
  lastError: string | undefined;

  constructor(directory: string, chainId: bigint, number: bigint, hashHex: string) {
    this.path = join(directory, String(chainId), `${number}-${hashHex.slice(2, 18)}.json`);
  }

  load(): { state: FetchedState; answers: Map<string, unknown> } | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const saved = JSON.parse(text) as {
        format: number;
        accounts: Record<string, [string, string, string] | null>;
        code: Record<string, string>;
        storage: Record<string, Record<string, string>>;
        answers: Record<string, unknown>;
      };
      if (saved.format !== FORMAT) return undefined;
      const state = emptyFetchedState();
      for (const [address, account] of Object.entries(saved.accounts)) state.accounts.set(address, account);
      for (const [hash, code] of Object.entries(saved.code)) state.code.set(hash, code);
      for (const [address, slots] of Object.entries(saved.storage)) state.storage.set(address, new Map(Object.entries(slots)));
      return { state, answers: new Map(Object.entries(saved.answers ?? {})) };
    } catch {
      return undefined;
    }
  }

  scheduleSave(state: FetchedState, answers: Map<string, unknown>): void {
    this.latest = { state, answers };
    if (this.timer) return;
    this.timer = setTimeout(() => this.save(), SAVE_DELAY_MS);
    this.timer.unref();
  }

  /** Write now if anything is waiting (the node calls this when it closes). */
  save(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const latest = this.latest;
    if (!latest) return;
    this.latest = undefined;
    const { state, answers } = latest;
    const body = JSON.stringify({
      format: FORMAT,
      accounts: Object.fromEntries(state.accounts),
      code: Object.fromEntries(state.code),
      storage: Object.fromEntries([...state.storage].map(([address, slots]) => [address, Object.fromEntries(slots)])),
      answers: Object.fromEntries(answers),
    });
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      mkdirSync(join(this.path, '..'), { recursive: true });
      writeFileSync(temp, body);
      renameSync(temp, this.path);
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      try {
        unlinkSync(temp);
      } catch {
        // nothing was written
      }
    }
  }
}
