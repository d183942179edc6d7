/**
 * The explorer's shell: a hash router (#/accounts, #/blocks/<page>, #/block/<n>, #/tx/<hash>,
 * #/address/<a>, #/controls), the search box, and the live state every view reads: the head
 * block (newHeads over the node's WebSocket) and the pending transactions.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { searchTarget, toNumber } from './format.js';
import { type Live, LiveContext } from './hooks.js';
import { rpc, subscribe } from './rpc.js';
import { forgetIdentifications, type Metadata } from './state.js';
import { AccountsView } from './views/accounts.js';
import { AddressView } from './views/address.js';
import { BlockView } from './views/block.js';
import { BlocksView } from './views/blocks.js';
import { ControlsView } from './views/controls.js';
import { TransactionView } from './views/transaction.js';
import type { TxSummary } from './views/blocks.js';
// Bundled by esbuild into app.css next to app.js.
import './style.css';

function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The most pending transactions kept on screen. */
const PENDING_SHOWN = 50;

type PoolContent = Record<'pending' | 'queued', Record<string, Record<string, TxSummary>>>;

/** The pool's transactions (txpool_content: pending, then queued), at most PENDING_SHOWN. */
async function poolTransactions(): Promise<TxSummary[]> {
  const content = await rpc<PoolContent>('txpool_content').catch(() => undefined);
  if (!content) return [];
  const all = [...Object.values(content.pending ?? {}), ...Object.values(content.queued ?? {})].flatMap((byNonce) => Object.values(byNonce));
  return all.slice(0, PENDING_SHOWN);
}

function useLiveChain(): Live {
  const [live, setLive] = useState<Live>({ head: -1, tick: 0, pending: [], connected: false });
  useEffect(() => {
    let stopped = false;
    let poolTimer: ReturnType<typeof setTimeout> | undefined;
    // Answers can arrive out of order: a look at the pool asked before a block was mined must
    // not replace one asked after it (the mined transaction would show as pending again).
    let poolAsked = 0;
    let poolShown = 0;
    const lookAtPool = async (): Promise<readonly TxSummary[] | undefined> => {
      const asked = ++poolAsked;
      const pending = await poolTransactions();
      if (stopped || asked < poolShown) return undefined;
      poolShown = asked;
      return pending;
    };
    const refreshHead = async () => {
      const head = toNumber(await rpc<string>('eth_blockNumber'));
      const pending = await lookAtPool();
      if (!stopped)
        setLive((l) => {
          // A lower head than before: a revert or reset rewound the chain; code at addresses may have changed.
          if (head < l.head) forgetIdentifications();
          return { ...l, head, tick: l.tick + 1, pending: pending ?? l.pending };
        });
    };
    // A burst of sends is one look at the pool, not one per transaction.
    const refreshPool = () => {
      if (poolTimer !== undefined) return;
      poolTimer = setTimeout(async () => {
        poolTimer = undefined;
        const pending = await lookAtPool();
        if (pending) setLive((l) => ({ ...l, tick: l.tick + 1, pending }));
      }, 150);
    };
    void refreshHead();
    const stop = subscribe(
      (kind) => {
        if (kind === 'newHeads') void refreshHead();
        else refreshPool();
      },
      (connected) => setLive((l) => ({ ...l, connected })),
    );
    // A revert or a reset sends no newHeads: a page coming back into view asks again.
    const onFocus = () => void refreshHead();
    addEventListener('focus', onFocus);
    addEventListener('chain-sim:refresh', onFocus);
    return () => {
      stopped = true;
      stop();
      if (poolTimer !== undefined) clearTimeout(poolTimer);
      removeEventListener('focus', onFocus);
      removeEventListener('chain-sim:refresh', onFocus);
    };
  }, []);
  return live;
}

function Search() {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const go = async (event: Event) => {
    event.preventDefault();
    const target = searchTarget(text);
    setProblem(undefined);
    if (target.kind === 'block') location.hash = `#/block/${target.number}`;
    else if (target.kind === 'address') location.hash = `#/address/${target.address}`;
    else if (target.kind === 'hash') {
      const tx = await rpc<unknown>('eth_getTransactionByHash', [target.hash]).catch(() => null);
      if (tx) location.hash = `#/tx/${target.hash}`;
      else {
        const block = await rpc<unknown>('eth_getBlockByHash', [target.hash, false]).catch(() => null);
        if (block) location.hash = `#/block/${target.hash}`;
        else setProblem(`no transaction or block ${target.hash}`);
      }
    } else setProblem('enter a block number, a transaction or block hash, or an address');
  };
  return (
    <form class="search" onSubmit={go}>
      <input id="search" placeholder="block number, tx hash or address" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
      <button type="submit">search</button>
      {problem && <span class="error">{problem}</span>}
    </form>
  );
}

function Page({ route, metadata }: { route: readonly string[]; metadata: Metadata | undefined }) {
  const [view, id] = route;
  const forkBlock = metadata?.forkedNetwork?.forkBlockNumber;
  switch (view) {
    case undefined:
    case 'accounts':
      return <AccountsView />;
    case 'blocks':
      return <BlocksView page={Math.max(0, Number(id ?? 0) || 0)} forkBlock={forkBlock} />;
    case 'block':
      return <BlockView key={id} id={id ?? '0'} />;
    case 'tx':
      return <TransactionView key={id} hash={id ?? ''} />;
    case 'address':
      return <AddressView key={id} address={(id ?? '').toLowerCase()} metadata={metadata} />;
    case 'controls':
      return <ControlsView />;
    default:
      return <p class="error">No such view: #{route.join('/')}</p>;
  }
}

function App() {
  const route = useRoute();
  const live = useLiveChain();
  const [metadata, setMetadata] = useState<Metadata | undefined>();
  useEffect(() => {
    rpc<Metadata>('hardhat_metadata').then(setMetadata, () => undefined);
  }, []);
  const tab = (name: string, label: string) => (
    <a href={`#/${name}`} class={(route[0] ?? 'accounts') === name ? 'active' : ''}>
      {label}
    </a>
  );
  return (
    <LiveContext.Provider value={live}>
      <header>
        <h1>chain-sim</h1>
        <nav class="tabs">
          {tab('accounts', 'Accounts')}
          {tab('blocks', 'Blocks')}
          {tab('controls', 'Controls')}
        </nav>
        <Search />
        <p class="status">
          <span id="head">block {live.head < 0 ? '…' : live.head.toLocaleString('en-US')}</span>
          {metadata && <span> · chain {metadata.chainId}</span>}
          {metadata?.forkedNetwork && (
            <span class="tag">
              fork of chain {metadata.forkedNetwork.chainId} at {metadata.forkedNetwork.forkBlockNumber}
            </span>
          )}
          <span class={live.connected ? 'live on' : 'live'}>{live.connected ? 'live' : 'polling'}</span>
        </p>
      </header>
      <main>{live.head < 0 ? <p class="muted">connecting…</p> : <Page route={route} metadata={metadata} />}</main>
    </LiveContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
