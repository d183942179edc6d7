/** The node's accounts with balances, nonces and keys (revealed on click), impersonated addresses, the contracts deployed since it started. */
import { useState } from 'preact/hooks';
import { ether, toBig, toNumber } from '../format.js';
import { AddressLink, BlockLink, Show, TxLink, useLive, useLoad } from '../hooks.js';
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

/** How many deployed contracts the view lists at first, and how many more each click on "older" adds. */
const SHOWN = 50;

interface Deployment {
  readonly address: string;
  readonly creator: string;
  readonly tx: string;
  readonly block: number;
  readonly name: string | undefined;
}

interface DeployedPage {
  readonly contracts: ReadonlyArray<{ address: string; creator: string; transactionHash: string; blockNumber: string }>;
  readonly total: string;
  readonly next: string | null;
}

/**
 * The newest `count` contracts the chain's blocks created (chain_deployedContracts: the node
 * keeps the list, so no block is scanned), each named when the project has it.
 */
async function loadDeployments(count: number): Promise<{ rows: Deployment[]; total: number }> {
  const listed: DeployedPage['contracts'][number][] = [];
  let cursor: string | null = null;
  let total = 0;
  do {
    const page: DeployedPage = await rpc<DeployedPage>('chain_deployedContracts', [Math.min(1000, count - listed.length), cursor]);
    listed.push(...page.contracts);
    total = toNumber(page.total);
    cursor = page.next;
  } while (cursor !== null && listed.length < count);
  const infos = await Promise.all(listed.map((c) => identify(c.address)));
  const rows = listed.map((c, i) => ({
    address: c.address,
    creator: c.creator,
    tx: c.transactionHash,
    block: toNumber(c.blockNumber),
    name: infos[i]?.contract?.name ?? infos[i]?.proxy?.contract?.name,
  }));
  return { rows, total };
}

/** Asked again on every change the page hears of (`tick`): a revert sends no new head but a refresh. */
function DeployedContracts({ tick }: { tick: number }) {
  const [count, setCount] = useState(SHOWN);
  const deployments = useLoad(() => loadDeployments(count), [tick, count]);
  return (
    <Show loaded={deployments}>
      {({ rows, total }) =>
        rows.length === 0 ? (
          <p class="muted">No contract deployed since the node started.</p>
        ) : (
          <>
            <table class="contracts">
              <thead>
                <tr>
                  <th>contract</th>
                  <th>address</th>
                  <th>created by</th>
                  <th>block</th>
                  <th>transaction</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={c.address} data-address={c.address}>
                    <td>{c.name ?? <span class="muted">unknown</span>}</td>
                    <td>
                      <AddressLink address={c.address} label={c.address} />
                    </td>
                    <td class="creator">
                      <AddressLink address={c.creator} />
                    </td>
                    <td>
                      <BlockLink number={c.block} />
                    </td>
                    <td>
                      <TxLink hash={c.tx} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="muted">
              {rows.length} of {total} contract{total === 1 ? '' : 's'}, newest first{' '}
              {rows.length < total && (
                <button type="button" class="older-contracts" onClick={() => setCount(count + SHOWN)}>
                  older
                </button>
              )}
            </p>
          </>
        )
      }
    </Show>
  );
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
      <DeployedContracts tick={live.tick} />
    </section>
  );
}
