/**
 * The controls a developer reaches for, each one JSON-RPC call: mine a block, automine and
 * interval mining, time travel, snapshots (the ones this tab took, listed), impersonation and
 * balances.
 */
import { useState } from 'preact/hooks';
import { toHex, when } from '../format.js';
import { BlockLink, Show, messageOf, useLive, useLoad } from '../hooks.js';
import { rpc } from '../rpc.js';
import { forgetIdentifications, impersonated, snapshots } from '../state.js';

/** `1.5` ether as wei. */
export function parseEther(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{0,18}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount of ether (digits, at most 18 decimals)`);
  return BigInt(match[1]!) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'));
}

function useAction(): [string | undefined, (label: string, run: () => Promise<unknown>) => Promise<void>] {
  const [message, setMessage] = useState<string | undefined>();
  const act = async (label: string, run: () => Promise<unknown>) => {
    try {
      const result = await run();
      setMessage(`${label}: ${typeof result === 'string' ? result : JSON.stringify(result)}`);
    } catch (error) {
      setMessage(`${label} failed: ${messageOf(error)}`);
    }
  };
  return [message, act];
}

export function ControlsView() {
  const live = useLive();
  const [message, act] = useAction();
  const [interval, setIntervalText] = useState('0');
  const [seconds, setSeconds] = useState('3600');
  const [who, setWho] = useState('');
  const [balanceOf, setBalanceOf] = useState('');
  const [amount, setAmount] = useState('100');
  const [, setVersion] = useState(0);
  const refresh = () => setVersion((v) => v + 1);
  const automine = useLoad(() => rpc<boolean>('hardhat_getAutomine'), [live.tick, message]);
  const list = snapshots.list();
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
        <button
          type="button"
          id="snapshot"
          onClick={() =>
            act('snapshot', async () => {
              const id = await rpc<string>('evm_snapshot');
              snapshots.add({ id, block: live.head, takenAt: toHex(Math.floor(Date.now() / 1000)) });
              refresh();
              return id;
            })
          }
        >
          take a snapshot
        </button>
        {list.length === 0 ? (
          <p class="muted">No snapshots taken from this tab.</p>
        ) : (
          <table class="snapshots">
            <tbody>
              {[...list].reverse().map((s) => (
                <tr key={s.id} data-snapshot={s.id}>
                  <td class="mono">{s.id}</td>
                  <td>
                    at block <BlockLink number={s.block} />
                  </td>
                  <td class="muted">{when(s.takenAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="revert"
                      onClick={() =>
                        act('reverted', async () => {
                          const done = await rpc<boolean>('evm_revert', [s.id]);
                          snapshots.revertTo(s.id);
                          forgetIdentifications();
                          // A revert sends no newHeads: the page's head and lists are asked for again.
                          dispatchEvent(new Event('chain-sim:refresh'));
                          refresh();
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
        )}
      </div>
      <div class="panel">
        <h3>Impersonate</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act('impersonating', async () => {
              await rpc('hardhat_impersonateAccount', [who.trim()]);
              impersonated.add(who.trim().toLowerCase());
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
