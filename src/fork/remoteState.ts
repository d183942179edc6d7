/**
 * The upstream's state at the pinned block, as the engine's overlay asks for it
 * (engine/state/forkState.ts). Each account (eth_getProof: balance, nonce and code hash in one
 * call, and the code when there is some; an upstream that refuses eth_getProof is asked
 * eth_getBalance, eth_getTransactionCount and eth_getCode in one batch) and each storage slot
 * is fetched at most once: a value is kept for the life of the
 * process (and on disk, diskCache.ts), and concurrent reads of one key share the request in
 * flight. A failed fetch is not kept, so the next read tries again. What was fetched is read
 * synchronously too (fetchedAccount, fetchedStorage): the state manager asks for it without a
 * promise, and a task of the chain's queue never waits for the upstream (remoteMiss.ts).
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
  /** Accounts decoded from `fetched` once (the state manager asks again after a chain revert empties its caches). */
  private readonly decoded = new Map<string, RemoteAccount | null>();
  /** Whether accounts are asked with eth_getProof (until the upstream refuses it). */
  private proofs = true;
  /** Called when something new was fetched (the disk cache schedules a save). */
  onFetched: (() => void) | undefined;

  constructor(
    public upstream: Upstream,
    /** The pinned block, as the upstream's block parameter. */
    private readonly blockTag: string,
    readonly fetched: FetchedState = emptyFetchedState(),
  ) {}

  async account(address: Address): Promise<RemoteAccount | undefined> {
    const known = this.fetchedAccount(address);
    if (known !== undefined) return known ?? undefined;
    const key = address.toString();
    await this.shared(`a:${key}`, async () => {
      const what = `account ${key} at block ${BigInt(this.blockTag)}`;
      const [wei, count, codeHex] = (this.proofs && (await this.accountByProof(key, what))) || (await this.accountByFields(key, what));
      const value: readonly [string, string, string] | null =
        wei === 0n && count === 0n && codeHex === '0x' ? null : [`0x${wei.toString(16)}`, `0x${count.toString(16)}`, this.keepCode(codeHex)];
      this.fetched.accounts.set(key, value);
      this.onFetched?.();
    });
    return this.fetchedAccount(address) ?? undefined;
  }

  /**
   * An account in one call, eth_getProof (balance, nonce and code hash; the code only when there
   * is some, a second call): an EOA costs one call instead of three. undefined when the upstream
   * refuses the method (it need not serve it, or not at that block): accounts are then read by
   * their fields from now on.
   */
  private async accountByProof(key: string, what: string): Promise<[bigint, bigint, string] | undefined> {
    let proof: unknown;
    try {
      proof = await this.upstream.request('eth_getProof', [key, [], this.blockTag], what);
    } catch (error) {
      // Refused (a JSON-RPC error): not served here. No answer at all: the request fails as any would.
      if (error instanceof UpstreamError && error.upstreamCode !== undefined) {
        this.proofs = false;
        return undefined;
      }
      throw error;
    }
    if (typeof proof !== 'object' || proof === null) throw malformed(this.upstream, 'eth_getProof', what, 'expected an object');
    const { balance, nonce, codeHash } = proof as { balance?: unknown; nonce?: unknown; codeHash?: unknown };
    const wei = quantity(balance, 'eth_getProof', what, this.upstream);
    const count = quantity(nonce, 'eth_getProof', what, this.upstream);
    const hash = hexData(codeHash, 'eth_getProof', what, this.upstream);
    // No code: the empty code's hash, or (some servers, for an account that does not exist) zero.
    if (hash === EMPTY_CODE_HASH || /^0x0*$/.test(hash)) return [wei, count, '0x'];
    const known = this.fetched.code.get(hash);
    if (known !== undefined) return [wei, count, known];
    const code = hexData(await this.upstream.request('eth_getCode', [key, this.blockTag], what), 'eth_getCode', what, this.upstream);
    return [wei, count, code];
  }

  /** An account by its fields: eth_getBalance, eth_getTransactionCount and eth_getCode, in one batch. */
  private async accountByFields(key: string, what: string): Promise<[bigint, bigint, string]> {
    const [balance, nonce, code] = await Promise.all([
      this.upstream.request('eth_getBalance', [key, this.blockTag], what),
      this.upstream.request('eth_getTransactionCount', [key, this.blockTag], what),
      this.upstream.request('eth_getCode', [key, this.blockTag], what),
    ]);
    return [
      quantity(balance, 'eth_getBalance', what, this.upstream),
      quantity(nonce, 'eth_getTransactionCount', what, this.upstream),
      hexData(code, 'eth_getCode', what, this.upstream),
    ];
  }

  fetchedAccount(address: Address): RemoteAccount | null | undefined {
    const key = address.toString();
    const decoded = this.decoded.get(key);
    if (decoded !== undefined) return decoded;
    const entry = this.fetched.accounts.get(key);
    if (entry === undefined) return undefined;
    let account: RemoteAccount | null = null;
    if (entry !== null) {
      const [balance, nonce, codeHash] = entry;
      const code = codeHash === EMPTY_CODE_HASH ? new Uint8Array() : hexBytes(this.fetched.code.get(codeHash) ?? '0x');
      account = { balance: BigInt(balance), nonce: BigInt(nonce), code };
    }
    this.decoded.set(key, account);
    return account;
  }

  fetchedStorage(address: Address, slot: Uint8Array): Uint8Array | undefined {
    const value = this.fetched.storage.get(address.toString())?.get(slotKey(slot));
    return value === undefined ? undefined : hexBytes(value);
  }

  async storage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const account = address.toString();
    const slotHex = slotKey(slot);
    let value = this.fetched.storage.get(account)?.get(slotHex);
    if (value === undefined) {
      value = await this.shared(`s:${account}:${slotHex}`, async () => {
        const what = `slot ${slotHex} of ${account} at block ${BigInt(this.blockTag)}`;
        const answer = await this.upstream.request('eth_getStorageAt', [account, slotHex, this.blockTag], what);
        const hex = hexData(answer, 'eth_getStorageAt', what, this.upstream);
        if (hex.length > 66) throw malformed(this.upstream, 'eth_getStorageAt', what, 'longer than 32 bytes');
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

/** A slot as `fetched` keys it: 32 bytes of hex. */
function slotKey(slot: Uint8Array): string {
  return `0x${Buffer.from(slot).toString('hex').padStart(64, '0')}`;
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
