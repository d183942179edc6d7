/**
 * The controls a developer reaches for, each one JSON-RPC call: mine a block, automine and
 * interval mining, time travel, snapshots (the node's, listed by chain_snapshots), impersonation and
 * balances.
 */
import { useState } from 'preact/hooks';
import { toHex, toNumber, when } from '../format.js';
import { BlockLink, Show, messageOf, useLive, useLoad } from '../hooks.js';
import { rpc } from '../rpc.js';
import { forgetIdentifications, listSnapshots } from '../state.js';

/** `1.5` ether as wei. */
export function parseEther(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{0,18}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount of ether (digits, at most 18 decimals)`);
  return BigInt(match[1]!) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'));
}

/** The last action's message, the way to run one, and how many have ended (what reads the node's state again). */
function useAction(): [string | undefined, (label: string, run: () => Promise<unknown>) => Promise<void>, number] {
  const [message, setMessage] = useState<string | undefined>();
  const [ended, setEnded] = useState(0);
  const act = async (label: string, run: () => Promise<unknown>) => {
    try {
      const result = await run();
      setMessage(`${label}: ${typeof result === 'string' ? result : JSON.stringify(result)}`);
    } catch (error) {
      setMessage(`${label} failed: ${messageOf(error)}`);
    }
    setEnded((n) => n + 1);
  };
  return [message, act, ended];
}

export function ControlsView() {
  const live = useLive();
  const [message, act, ended] = useAction();
  const [interval, setIntervalText] = useState('0');
  const [seconds, setSeconds] = useState('3600');
  const [who, setWho] = useState('');
  const [balanceOf, setBalanceOf] = useState('');
  const [amount, setAmount] = useState('100');
  const automine = useLoad(() => rpc<boolean>('hardhat_getAutomine'), [live.tick, ended]);
  // Asked again after each action here and each new head: a test or another client may take or revert one.
  const snapshots = useLoad(listSnapshots, [live.tick, ended]);
  return (
    <section class="controls">
      <h2>Controls</h2>
      {message && <p class="message">{message}</p>}
      <div class="panel">
        <h3>Mining</h3>
        <button type="button" id="mine" onClick={() => act('mined', () => rpc('evm_mine'))}>
          mine a block
        </button>{' '}
        <Show loaded={automine}>
          {(on) => (
            <label>
              <input
                type="checkbox"
                id="automine"
                // Not controlled: the box keeps what was clicked until the node's state, read back, differs (a new key).
                key={String(on)}
                defaultChecked={on}
                onChange={(e) => {
                  const enabled = (e.target as HTMLInputElement).checked;
                  act(`automine ${enabled ? 'on' : 'off'}`, () => rpc('evm_setAutomine', [enabled]));
                }}
              />{' '}
              automine
            </label>
          )}
        </Show>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act(`interval mining ${interval} ms`, () => rpc('chain_setIntervalMining', [Number(interval)]));
          }}
        >
          <label>
            interval (ms, 0: off) <input name="interval" value={interval} onInput={(e) => setIntervalText((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit">set</button>
        </form>
      </div>
      <div class="panel">
        <h3>Time travel</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act('time moved', async () => {
              await rpc('evm_increaseTime', [Number(seconds)]);
              return rpc('evm_mine');
            });
          }}
        >
          <label>
            seconds <input name="seconds" value={seconds} onInput={(e) => setSeconds((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit">move forward and mine</button>
        </form>
      </div>
      <div class="panel">
        <h3>Snapshots</h3>
        <button type="button" id="snapshot" onClick={() => act('snapshot', () => rpc<string>('evm_snapshot'))}>
          take a snapshot
        </button>
        <Show loaded={snapshots}>
          {(list) =>
            list.length === 0 ? (
              <p class="muted">No snapshots on the node.</p>
            ) : (
              <table class="snapshots">
                <tbody>
                  {[...list].reverse().map((s) => (
                    <tr key={s.id} data-snapshot={s.id}>
                      <td class="mono">{s.id}</td>
                      <td>
                        at block <BlockLink number={toNumber(s.blockNumber)} />
                      </td>
                      <td class="muted">{when(s.timestamp)}</td>
                      <td>
                        <button
                          type="button"
                          class="revert"
                          onClick={() =>
                            act('reverted', async () => {
                              // evm_revert uses the snapshot up and discards the later ones: the list, asked again, shows it.
                              const done = await rpc<boolean>('evm_revert', [s.id]);
                              forgetIdentifications();
                              // A revert sends no newHeads: the page's head and lists are asked for again.
                              dispatchEvent(new Event('chain-sim:refresh'));
                              return done;
                            })
                          }
                        >
                          revert
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Show>
      </div>
      <div class="panel">
        <h3>Impersonate</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act('impersonating', async () => {
              await rpc('hardhat_impersonateAccount', [who.trim()]);
              return who.trim();
            });
          }}
        >
          <label>
            address <input name="impersonate" value={who} onInput={(e) => setWho((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit">impersonate</button>
        </form>
      </div>
      <div class="panel">
        <h3>Set a balance</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act('balance set', async () => rpc('hardhat_setBalance', [balanceOf.trim(), toHex(parseEther(amount))]));
          }}
        >
          <label>
            address <input name="balance-address" value={balanceOf} onInput={(e) => setBalanceOf((e.target as HTMLInputElement).value)} />
          </label>
          <label>
            ether <input name="balance-amount" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit">set</button>
        </form>
      </div>
    </section>
  );
}
