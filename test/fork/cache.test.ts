import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { type ChainSimOptions, createProvider } from '../../src/index.js';
import { HOLDERS, type Upstream, holder, ledger, startUpstream, stateCalls, token } from './upstream.js';

const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;

/** A suite's worth of work on a fork: reads of holders, the ledger, a transfer by a holder, history. */
async function workload(up: Upstream, options: ChainSimOptions): Promise<string[]> {
  const provider = createProvider({ quiet: true, ...options });
  const rpc = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;
  const seen: string[] = [];
  try {
    for (let i = 1; i <= HOLDERS; i += 7) {
      seen.push(await rpc<string>('eth_call', [{ to: up.tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(i)]) }, 'latest']));
    }
    seen.push(await rpc<string>('eth_call', [{ to: up.ledgerAddress, data: ledger.encodeFunctionData('sumOf', [up.accounts[1]]) }, 'latest']));
    await rpc('hardhat_impersonateAccount', [holder(9)]);
    await rpc('hardhat_setBalance', [holder(9), hex(10n ** 18n)]);
    const hash = await rpc<string>('eth_sendTransaction', [
      { from: holder(9), to: up.tokenAddress, data: token.encodeFunctionData('transfer', [holder(10), 9n]) },
    ]);
    seen.push((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status);
    seen.push(await rpc<string>('eth_call', [{ to: up.tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(10)]) }, 'latest']));
    seen.push(String((await rpc<unknown[]>('eth_getLogs', [{ address: up.tokenAddress, fromBlock: '0x0', toBlock: 'latest' }])).length));
  } finally {
    await provider.disconnect();
  }
  return seen;
}

describe('forking: the disk cache', function () {
  this.timeout(60_000);
  let up: Upstream;
  let dir: string;
  before(async () => {
    up = await startUpstream();
    dir = mkdtempSync(join(tmpdir(), 'chain-sim-fork-cache-'));
  });
  after(async () => {
    await up?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second run at the same block makes no upstream state requests, and answers the same', async () => {
    const options: ChainSimOptions = { fork: up.url, forkBlockNumber: up.head.toString(), forkCacheDir: dir };
    const first = await workload(up, options);
    const firstState = stateCalls(up);
    expect(firstState).to.be.at.least(10);
    const files = readdirSync(join(dir, '31337'));
    expect(files).to.have.length(1);
    expect(files[0]).to.match(new RegExp(`^${up.head}-[0-9a-f]{16}\\.json$`));
    up.calls.clear();
    const second = await workload(up, options);
    expect(second).to.deep.equal(first);
    expect(stateCalls(up)).to.equal(0);
    expect(up.callCount('eth_getLogs')).to.equal(0); // history answers are kept too
    // Without the cache, the same run asks again.
    up.calls.clear();
    expect(await workload(up, { ...options, forkCache: false })).to.deep.equal(first);
    expect(stateCalls(up)).to.equal(firstState);
  });

  it('an unreadable cache file is ignored and replaced', async () => {
    const options: ChainSimOptions = { fork: up.url, forkBlockNumber: (up.head - 2n).toString(), forkCacheDir: dir };
    const first = await workload(up, options);
    const file = readdirSync(join(dir, '31337')).find((name) => name.startsWith(`${up.head - 2n}-`))!;
    writeFileSync(join(dir, '31337', file), '{"format":1,"accounts":');
    up.calls.clear();
    expect(await workload(up, options)).to.deep.equal(first);
    expect(stateCalls(up)).to.be.greaterThan(0);
    up.calls.clear();
    await workload(up, options);
    expect(stateCalls(up)).to.equal(0);
    expect(existsSync(join(dir, '31337', file))).to.equal(true);
  });
});
