/** Small pieces the views share: loading data, links, errors. */
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { RpcError } from './rpc.js';
import { short } from './format.js';
import type { TxSummary } from './views/blocks.js';

/** The head block number, and a counter that moves on every new head or pending transaction. */
export interface Live {
  readonly head: number;
  readonly tick: number;
  /** The pool's transactions (pending and queued). */
  readonly pending: readonly TxSummary[];
  readonly connected: boolean;
}

export const LiveContext = createContext<Live>({ head: 0, tick: 0, pending: [], connected: false });
export const useLive = (): Live => useContext(LiveContext);

export type Loaded<T> = { readonly state: 'loading' } | { readonly state: 'done'; readonly value: T } | { readonly state: 'failed'; readonly error: string };

/** Runs `load` when a dependency changes; the previous value stays shown while the next loads. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setLoaded({ state: 'done', value }),
      (error: unknown) => current && setLoaded({ state: 'failed', error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return loaded;
}

export function messageOf(error: unknown): string {
  if (error instanceof RpcError) return error.decoded?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (value: T) => ComponentChildren }) {
  if (loaded.state === 'loading') return <p class="muted">loading…</p>;
  if (loaded.state === 'failed') return <p class="error">{loaded.error}</p>;
  return <>{children(loaded.value)}</>;
}

export const BlockLink = ({ number }: { number: number | bigint }) => <a href={`#/block/${number}`}>{String(number)}</a>;
export const TxLink = ({ hash, full }: { hash: string; full?: boolean }) => (
  <a class="mono" href={`#/tx/${hash}`}>
    {full ? hash : short(hash, 8)}
  </a>
);
export const AddressLink = ({ address, label }: { address: string | null | undefined; label?: string }) =>
  address ? (
    <a class="mono" href={`#/address/${address.toLowerCase()}`} title={address}>
      {label ?? short(address, 6)}
    </a>
  ) : (
    <span class="muted">—</span>
  );
