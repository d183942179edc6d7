/** The node's accounts with balances, nonces and keys (revealed on click), impersonated addresses, deployed contracts. */
import { useState } from 'preact/hooks';
import { ether, toBig, toHex, toNumber } from '../format.js';
import { AddressLink, Show, TxLink, useLive, useLoad } from '../hooks.js';
import { rpc, rpcBatch } from '../rpc.js';
import { identify, listImpersonated } from '../state.js';

interface AccountRow {
  readonly address: string;
  readonly balance: bigint;
  readonly nonce: number;
}

async function loadAccounts(addresses: readonly string[]): Promise<AccountRow[]> {
  const answers = await rpcBatch<string>(
    addresses.flatMap((a) => [['eth_getBalance', [a, 'latest']] as const, ['eth_getTransactionCount', [a, 'latest']] as const]),
  );
  return addresses.map((address, i) => ({ address, balance: toBig(answers[2 * i]), nonce: toNumber(answers[2 * i + 1]) }));
}

function AccountTable({ rows, keys }: { rows: readonly AccountRow[]; keys?: ReadonlyMap<string, string> }) {
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  return (
    <table class="accounts">
      <thead>
        <tr>
          <th>#</th>
          <th>address</th>
          <th class="num">balance</th>
          <th class="num">nonce</th>
          {keys && <th>private key</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => {
          const key = keys?.get(row.address.toLowerCase());
          return (
            <tr key={row.address} data-address={row.address.toLowerCase()}>
              <td>{i}</td>
              <td>
                <AddressLink address={row.address} label={row.address} />
              </td>
              <td class="num balance">{ether(row.balance)}</td>
              <td class="num">{row.nonce}</td>
              {keys && (
                <td>
                  {key === undefined ? (
                    <span class="muted">no key</span>
                  ) : shown.has(row.address) ? (
                    <code class="key">{key}</code>
                  ) : (
                    <button type="button" class="reveal" onClick={() => setShown(new Set([...shown, row.address]))}>
                      show key
                    </button>
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Contracts created by transactions of the latest blocks (up to `SCAN` of them), newest first. */
const SCAN = 1000;

interface Deployment {
  readonly address: string;
  readonly tx: string;
  readonly block: number;
  readonly name: string | undefined;
}

/** What was scanned: blocks up to `head` (by hash, so a revert or reorg starts the scan again). */
let scanned: { head: number; hash: string; found: Deployment[] } | undefined;

async function loadDeployments(head: number): Promise<Deployment[]> {
  if (scanned) {
    const [block] = await rpcBatch<{ hash: string } | null>([['eth_getBlockByNumber', [toHex(scanned.head), false]]]);
    if (block?.hash !== scanned.hash) scanned = undefined;
  }
  const from = Math.max(scanned ? scanned.head + 1 : 0, head - SCAN + 1);
  const numbers = Array.from({ length: Math.max(0, head - from + 1) }, (_, i) => head - i);
  const found: Deployment[] = [];
  let headHash = scanned?.hash ?? '';
  for (let i = 0; i < numbers.length; i += 200) {
    const slice = numbers.slice(i, i + 200);
    const blocks = await rpcBatch<{ hash: string; transactions: Array<{ hash: string; to: string | null }> } | null>(
      slice.map((n) => ['eth_getBlockByNumber', [toHex(n), true]] as const),
    );
    if (i === 0 && blocks[0]) headHash = blocks[0].hash;
    const creations = blocks.flatMap((block, j) => (block?.transactions ?? []).filter((tx) => tx.to === null).map((tx) => ({ tx: tx.hash, block: slice[j]! })));
    const receipts = await rpcBatch<{ contractAddress: string | null; status: string } | null>(
      creations.map((c) => ['eth_getTransactionReceipt', [c.tx]] as const),
    );
    for (const [j, creation] of creations.entries()) {
      const address = receipts[j]?.contractAddress;
      if (!address || receipts[j]?.status !== '0x1') continue;
      const info = await identify(address);
      found.push({ ...creation, address, name: info?.contract?.name ?? info?.proxy?.contract?.name });
    }
  }
  scanned = {
    head: Math.max(head, scanned?.head ?? 0),
    hash: numbers.length > 0 ? headHash : (scanned?.hash ?? ''),
    found: [...found, ...(scanned?.found ?? [])],
  };
  return scanned.found;
}

export function AccountsView() {
  const live = useLive();
  const accounts = useLoad(async () => {
    const addresses = await rpc<string[]>('eth_accounts');
    const keys = await rpc<Array<{ address: string; privateKey: string }>>('chain_accountKeys').catch(() => []);
    return { rows: await loadAccounts(addresses), keys: new Map(keys.map((k) => [k.address.toLowerCase(), k.privateKey])) };
  }, [live.tick]);
  // Asked again on each new head, and whenever the view opens: impersonation sends no event.
  const others = useLoad(async () => loadAccounts(await listImpersonated()), [live.tick]);
  const deployments = useLoad(() => loadDeployments(live.head), [live.head]);
  return (
    <section>
      <h2>Accounts</h2>
      <Show loaded={accounts}>{({ rows, keys }) => <AccountTable rows={rows} keys={keys} />}</Show>
      <h2>Impersonated accounts</h2>
      <Show loaded={others}>
        {(rows) =>
          rows.length === 0 ? (
            <p class="muted">No account impersonated (Controls → Impersonate, or hardhat_impersonateAccount from any client).</p>
          ) : (
            <table class="impersonated">
              <tbody>
                {rows.map((row) => (
                  <tr key={row.address}>
                    <td>
                      <AddressLink address={row.address} label={row.address} />
                    </td>
                    <td class="num">{ether(row.balance)}</td>
                    <td class="num">nonce {row.nonce}</td>
                    <td>
                      <button
                        type="button"
                        onClick={async () => {
                          await rpc('hardhat_stopImpersonatingAccount', [row.address]);
                          location.reload();
                        }}
                      >
                        stop
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
      <h2>Contracts deployed</h2>
      <Show loaded={deployments}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No contract deployed in the latest {SCAN} blocks.</p>
          ) : (
            <table class="contracts">
              <thead>
                <tr>
                  <th>contract</th>
                  <th>address</th>
                  <th>block</th>
                  <th>transaction</th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr key={c.address}>
                    <td>{c.name ?? <span class="muted">unknown</span>}</td>
                    <td>
                      <AddressLink address={c.address} label={c.address} />
                    </td>
                    <td>{c.block}</td>
                    <td>
                      <TxLink hash={c.tx} />
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
}
