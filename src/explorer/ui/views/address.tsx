/**
 * An address: balance and nonce; for a contract its name and source file when the project has
 * it, its read functions callable from a form ("Read contract"), its write functions sent from one
 * of the node's accounts, its storage slots and its events.
 */
import { useState } from 'preact/hooks';
import type { Hex } from 'viem';
import { argumentOf, decodeLog, decodeResult, encodeCall, isRead, isWrite, signature } from '../abi.js';
import { ether, toBig, toHex, toNumber } from '../format.js';
import { AddressLink, BlockLink, Show, TxLink, messageOf, useLive, useLoad } from '../hooks.js';
import { rpc } from '../rpc.js';
import { type AbiEntry, type Metadata, abiOf, identify, listImpersonated } from '../state.js';

/** How far back the events list looks (eth_getLogs over a range, not the whole of a long chain). */
const EVENT_BLOCKS = 10_000;

function FunctionForm({ address, entry, senders }: { address: string; entry: AbiEntry; senders: readonly string[] | undefined }) {
  const inputs = entry.inputs ?? [];
  const [values, setValues] = useState<string[]>(inputs.map(() => ''));
  const [from, setFrom] = useState(senders?.[0] ?? '');
  const [value, setValue] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string; tx?: string } | undefined>();
  const payable = entry.stateMutability === 'payable';
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const data = encodeCall(
        entry,
        inputs.map((input, i) => argumentOf(input, values[i] ?? '')),
      );
      if (senders === undefined) {
        const returned = await rpc<Hex>('eth_call', [{ to: address, data }, 'latest']);
        setResult({
          ok: true,
          text:
            decodeResult(entry, returned)
              .map((o) => `${o.name ? `${o.name}: ` : ''}${o.value}`)
              .join('\n') || '(nothing returned)',
        });
      } else {
        const wei = value.trim() === '' ? 0n : BigInt(value.trim());
        const hash = await rpc<string>('eth_sendTransaction', [{ from, to: address, data, ...(wei > 0n ? { value: toHex(wei) } : {}) }]);
        setResult({ ok: true, text: 'sent', tx: hash });
      }
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    }
  };
  return (
    <form class="function" data-function={entry.name} onSubmit={submit}>
      <p class="mono">{signature(entry)}</p>
      {inputs.map((input, i) => (
        <label key={i}>
          {input.name || `arg ${i}`} <span class="muted">{input.type}</span>
          <input
            name={input.name || `arg${i}`}
            value={values[i]}
            onInput={(e) => setValues(values.map((v, j) => (j === i ? (e.target as HTMLInputElement).value : v)))}
          />
        </label>
      ))}
      {senders !== undefined && (
        <label>
          from
          <select value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
            {senders.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      )}
      {payable && (
        <label>
          value <span class="muted">wei</span>
          <input name="value" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
        </label>
      )}
      <button type="submit">{senders === undefined ? 'call' : 'send'}</button>
      {result && (
        <pre class={result.ok ? 'result' : 'result error'}>
          {result.text}
          {result.tx && (
            <>
              {' '}
              <TxLink hash={result.tx} />
            </>
          )}
        </pre>
      )}
    </form>
  );
}

function StorageReader({ address }: { address: string }) {
  const live = useLive();
  const [slot, setSlot] = useState('0');
  const [first, setFirst] = useState(0);
  const slots = useLoad(
    () =>
      Promise.all(
        Array.from({ length: 8 }, (_, i) => rpc<string>('eth_getStorageAt', [address, toHex(first + i), 'latest']).then((v) => [first + i, v] as const)),
      ),
    [address, first, live.tick],
  );
  return (
    <div class="storage">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setFirst(Number(BigInt(slot.trim() || '0')));
        }}
      >
        <label>
          from slot <input name="slot" value={slot} onInput={(e) => setSlot((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">read</button>
      </form>
      <Show loaded={slots}>
        {(list) => (
          <table>
            <tbody>
              {list.map(([n, v]) => (
                <tr key={n}>
                  <td>slot {n}</td>
                  <td class="mono">{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </div>
  );
}

interface Log {
  readonly topics: readonly Hex[];
  readonly data: Hex;
  readonly blockNumber: string;
  readonly transactionHash: string;
  readonly logIndex: string;
}

export function AddressView({ address, metadata }: { address: string; metadata: Metadata | undefined }) {
  const live = useLive();
  const account = useLoad(async () => {
    const [balance, nonce, code, accounts, impersonated] = await Promise.all([
      rpc<string>('eth_getBalance', [address, 'latest']),
      rpc<string>('eth_getTransactionCount', [address, 'latest']),
      rpc<string>('eth_getCode', [address, 'latest']),
      rpc<string[]>('eth_accounts'),
      listImpersonated(),
    ]);
    const info = code === '0x' ? null : await identify(address);
    const fork = metadata?.forkedNetwork;
    // On a fork an account the upstream had at the pinned block is a remote one (its state came from there).
    const remote =
      fork !== undefined &&
      (await Promise.all([
        rpc<string>('eth_getBalance', [address, toHex(fork.forkBlockNumber)]),
        rpc<string>('eth_getCode', [address, toHex(fork.forkBlockNumber)]),
      ]).then(
        ([b, c]) => toBig(b) > 0n || c !== '0x',
        () => false,
      ));
    return {
      balance: toBig(balance),
      nonce: toNumber(nonce),
      codeSize: (code.length - 2) / 2,
      info,
      own: accounts.map((a) => a.toLowerCase()).includes(address),
      accounts,
      impersonated,
      remote,
    };
  }, [address, live.tick]);
  const events = useLoad(async () => {
    const from = Math.max(0, live.head - EVENT_BLOCKS + 1);
    const logs = await rpc<Log[]>('eth_getLogs', [{ address, fromBlock: toHex(from), toBlock: 'latest' }]);
    const info = await identify(address);
    return logs
      .slice(-50)
      .reverse()
      .map((log) => ({ log, decoded: decodeLog(abiOf(info), log.topics, log.data) }));
  }, [address, live.head]);
  return (
    <Show loaded={account}>
      {({ balance, nonce, codeSize, info, own, accounts, impersonated, remote }) => {
        const abi = abiOf(info);
        const name = info?.contract?.name;
        return (
          <section>
            <h2>
              {codeSize > 0 ? 'Contract' : 'Account'} <span class="mono">{address}</span>
            </h2>
            <dl class="fields">
              {codeSize > 0 && (
                <>
                  <dt>contract</dt>
                  <dd class="contract-name">
                    {name ?? <span class="muted">not one of the project's contracts</span>}
                    {info?.contract && <span class="muted"> ({info.contract.sourceName})</span>}
                    {info?.proxy && (
                      <span>
                        {' '}
                        {info.proxy.standard} proxy to <AddressLink address={info.proxy.implementation} label={info.proxy.contract?.name} />
                        {info.proxy.beacon && (
                          <>
                            {' '}
                            (beacon <AddressLink address={info.proxy.beacon.address} label={info.proxy.beacon.contract?.name} />)
                          </>
                        )}
                      </span>
                    )}
                  </dd>
                  <dt>code</dt>
                  <dd>{codeSize.toLocaleString('en-US')} bytes</dd>
                </>
              )}
              <dt>balance</dt>
              <dd class="balance">{ether(balance)}</dd>
              <dt>nonce</dt>
              <dd>{nonce}</dd>
              {own && (
                <>
                  <dt>node account</dt>
                  <dd>one of the node's accounts (its key: Accounts)</dd>
                </>
              )}
              {remote && (
                <>
                  <dt>fork</dt>
                  <dd>
                    <span class="tag">remote</span> existed on the upstream at the fork block
                  </dd>
                </>
              )}
            </dl>
            {abi.some(isRead) && (
              <>
                <h3>Read contract</h3>
                {abi.filter(isRead).map((entry) => (
                  <FunctionForm key={signature(entry)} address={address} entry={entry} senders={undefined} />
                ))}
              </>
            )}
            {abi.some(isWrite) && (
              <>
                <h3>Write contract</h3>
                {abi.filter(isWrite).map((entry) => (
                  <FunctionForm key={signature(entry)} address={address} entry={entry} senders={[...accounts, ...impersonated]} />
                ))}
              </>
            )}
            {codeSize > 0 && (
              <>
                <h3>Storage</h3>
                <StorageReader address={address} />
              </>
            )}
            <h3>Events</h3>
            <Show loaded={events}>
              {(list) =>
                list.length === 0 ? (
                  <p class="muted">No events in the latest {EVENT_BLOCKS.toLocaleString('en-US')} blocks.</p>
                ) : (
                  <table class="events">
                    <tbody>
                      {list.map(({ log, decoded }) => (
                        <tr key={`${log.transactionHash}-${log.logIndex}`}>
                          <td>
                            <BlockLink number={toNumber(log.blockNumber)} />
                          </td>
                          <td>
                            <TxLink hash={log.transactionHash} />
                          </td>
                          <td class="mono">
                            {decoded ? `${decoded.name}(${decoded.args.map((a) => `${a.name}: ${a.value}`).join(', ')})` : `${log.topics[0] ?? ''} ${log.data}`}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )
              }
            </Show>
          </section>
        );
      }}
    </Show>
  );
}
