/**
 * The upstream's state at the pinned block, as the engine's overlay asks for it
 * (engine/state/forkState.ts). Each account (balance, nonce and code: one batch of three calls)
 * and each storage slot is fetched at most once: a value is kept for the life of the
 * process (and on disk, diskCache.ts), and concurrent reads of one key share the request in
 * flight. A failed fetch is not kept, so the next read tries again.
 */
import type { Address } from '@ethereumjs/util';
import { type RemoteAccount, type RemoteState, keccak256 } from '../engine/index.js';
import { type Upstream, UpstreamError } from './upstream.js';

/** What is fetched, in a form that can be saved as JSON (hex strings). */
export interface FetchedState {
  /** address → [balance, nonce, codeHash] (hex), or null: no such account. */
  readonly accounts: Map<string, readonly [string, string, string] | null>;
  /** code hash → code (hex). */
  readonly code: Map<string, string>;
  /** address → slot → value (hex). */
  readonly storage: Map<string, Map<string, string>>;
}

export function emptyFetchedState(): FetchedState {
  return { accounts: new Map(), code: new Map(), storage: new Map() };
}

const EMPTY_CODE_HASH = `0x${Buffer.from(keccak256(new Uint8Array())).toString('hex')}`;

export class UpstreamState implements RemoteState {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Called when something new was fetched (the disk cache schedules a save). */
  onFetched: (() => void) | undefined;

  constructor(
    public upstream: Upstream,
    /** The pinned block, as the upstream's block parameter. */
    private readonly blockTag: string,
    readonly fetched: FetchedState = emptyFetchedState(),
  ) {}

  async account(address: Address): Promise<RemoteAccount | undefined> {
    const key = address.toString();
    let entry = this.fetched.accounts.get(key);
    if (entry === undefined) {
      entry = await this.shared(`a:${key}`, async () => {
        const what = `account ${key} at block ${BigInt(this.blockTag)}`;
        const [balance, nonce, code] = await Promise.all([
          this.upstream.request('eth_getBalance', [key, this.blockTag], what),
          this.upstream.request('eth_getTransactionCount', [key, this.blockTag], what),
          this.upstream.request('eth_getCode', [key, this.blockTag], what),
        ]);
        const codeHex = hexData(code, 'eth_getCode', what, this.upstream);
        const wei = quantity(balance, 'eth_getBalance', what, this.upstream);
        const count = quantity(nonce, 'eth_getTransactionCount', what, this.upstream);
        const value: readonly [string, string, string] | null =
          wei === 0n && count === 0n && codeHex === '0x' ? null : [`0x${wei.toString(16)}`, `0x${count.toString(16)}`, this.keepCode(codeHex)];
        this.fetched.accounts.set(key, value);
        this.onFetched?.();
        return value;
      });
    }
    if (entry === null) return undefined;
    const [balance, nonce, codeHash] = entry;
    const code = codeHash === EMPTY_CODE_HASH ? new Uint8Array() : hexBytes(this.fetched.code.get(codeHash) ?? '0x');
    return { balance: BigInt(balance), nonce: BigInt(nonce), code };
  }

  async storage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const account = address.toString();
    const slotHex = `0x${Buffer.from(slot).toString('hex').padStart(64, '0')}`;
    let value = this.fetched.storage.get(account)?.get(slotHex);
    if (value === undefined) {
      value = await this.shared(`s:${account}:${slotHex}`, async () => {
        const what = `slot ${slotHex} of ${account} at block ${BigInt(this.blockTag)}`;
        const answer = await this.upstream.request('eth_getStorageAt', [account, slotHex, this.blockTag], what);
        const hex = hexData(answer, 'eth_getStorageAt', what, this.upstream);
        if (hex.length > 66)
          throw new UpstreamError(`fork upstream ${this.upstream.masked}: eth_getStorageAt for ${what} failed: malformed answer (longer than 32 bytes)`);
        let slots = this.fetched.storage.get(account);
        if (!slots) this.fetched.storage.set(account, (slots = new Map()));
        slots.set(slotHex, hex);
        this.onFetched?.();
        return hex;
      });
    }
    return hexBytes(value);
  }

  code(codeHash: Uint8Array): Uint8Array | undefined {
    const code = this.fetched.code.get(`0x${Buffer.from(codeHash).toString('hex')}`);
    return code === undefined ? undefined : hexBytes(code);
  }

  private keepCode(codeHex: string): string {
    const hash = `0x${Buffer.from(keccak256(hexBytes(codeHex))).toString('hex')}`;
    if (codeHex !== '0x') this.fetched.code.set(hash, codeHex);
    return hash;
  }

  /** One request per key at a time: later readers wait for the first one's answer. */
  private shared<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    let running = this.inFlight.get(key) as Promise<T> | undefined;
    if (!running) {
      running = fetch().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, running);
    }
    return running;
  }
}

function malformed(upstream: Upstream, method: string, what: string, detail: string): UpstreamError {
  return new UpstreamError(`fork upstream ${upstream.masked}: ${method} for ${what} failed: malformed answer (${detail})`);
}

function quantity(value: unknown, method: string, what: string, upstream: Upstream): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value))
    throw malformed(upstream, method, what, `expected a quantity, got ${JSON.stringify(value)?.slice(0, 40)}`);
  return BigInt(value);
}

function hexData(value: unknown, method: string, what: string, upstream: Upstream): string {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw malformed(upstream, method, what, `expected hex data, got ${JSON.stringify(value)?.slice(0, 40)}`);
  return value.toLowerCase();
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}
