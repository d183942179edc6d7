import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type RunningCli, runNode, startCli } from '../helpers/cli.js';

const PROJECT = fileURLToPath(new URL('../../../test/e2e/hardhat-plugin/', import.meta.url));
const HARDHAT = fileURLToPath(new URL('../../../node_modules/hardhat/internal/cli/cli.js', import.meta.url));
const OTHER = '0x00000000000000000000000000000000000000aa';

/** A JSON-RPC proxy in front of the upstream node that remembers the headers of every request. */
async function recordingProxy(target: string): Promise<{ url: string; headers: IncomingHttpHeaders[]; server: Server }> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((incoming, answer) => {
    headers.push(incoming.headers);
    const forwarded = request(target, { method: 'POST', headers: { 'content-type': 'application/json' } }, (upstream) => {
      answer.writeHead(upstream.statusCode ?? 502, { 'content-type': 'application/json' });
      upstream.pipe(answer);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, headers, server };
}

/**
 * chain-sim/hardhat in a real Hardhat 2 project (test/e2e/hardhat-plugin/, compiled offline with
 * solc-js): its config's first line puts chain-sim under the built-in `hardhat` network. Every run
 * is made twice, with the line and without it (HARDHAT_OWN_NETWORK=1: Hardhat's own network, EDR),
 * and both must pass the same tests and see the same effects of every networks.hardhat setting.
 */
describe('chain-sim/hardhat: Hardhat 2 in process', function () {
  this.timeout(300_000);
  let out: string;
  let upstream: RunningCli;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  const env = (more: Record<string, string> = {}) => ({
    HARDHAT_OUT: out,
    HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
    CHAIN_SIM_UPSTREAM: proxy.url,
    ...more,
  });
  const hardhat = (args: string[], more: Record<string, string> = {}) => runNode([HARDHAT, ...args], { cwd: PROJECT, env: env(more) });

  before(async () => {
    out = mkdtempSync(join(tmpdir(), 'chain-sim-hardhat-plugin-'));
    // The chain the fork tests fork: block 1 gives OTHER a balance of 0x1234.
    upstream = await startCli(['--port', '0', '--quiet']);
    const rpc = (method: string, params: unknown[]) =>
      fetch(upstream.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    await rpc('hardhat_setBalance', [OTHER, '0x1234']);
    await rpc('evm_mine', []);
    proxy = await recordingProxy(upstream.url);
    const compiled = await hardhat(['compile', '--quiet']);
    expect(compiled.code, compiled.stdout + compiled.stderr).to.equal(0);
  });
  after(async () => {
    proxy?.server.close();
    await upstream?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  const PASSING = /16 passing/;

  it("runs the project's tests (hardhat-ethers, chai matchers, network helpers, console.log, reset to a fork) on chain-sim", async () => {
    const run = await hardhat(['test', '--no-compile']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout)
      .to.match(PASSING)
      .and.not.match(/failing/);
    expect(run.stdout).to.contain('hardhat-ethers and the chai matchers (chain-sim)');
  });

  it("runs the same tests on Hardhat's own network once the line is gone", async () => {
    const run = await hardhat(['test', '--no-compile'], { HARDHAT_OWN_NETWORK: '1' });
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout)
      .to.match(PASSING)
      .and.not.match(/failing/);
    expect(run.stdout).to.contain("hardhat-ethers and the chai matchers (Hardhat's network)");
  });

  it('runs them under hardhat test --parallel, a chain-sim chain in each worker', async () => {
    const run = await hardhat(['test', '--no-compile', '--parallel']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout)
      .to.match(PASSING)
      .and.not.match(/failing/);
    expect(run.stdout).to.contain('(chain-sim)');
  });

  it('explains failures with the project’s artifacts, with the new code after a recompile in the same process', async () => {
    try {
      const run = await hardhat(['run', 'scripts/recompile.cjs']);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      const { before, after } = JSON.parse(run.stdout.trim().split('\n').pop()!);
      const message = "VM Exception while processing transaction: reverted with custom error 'Nope(7)'";
      expect(before).to.deep.equal({ message, frame: 'at Edited.fail (contracts/Edited.sol:10)' });
      expect(after).to.deep.equal({ message, frame: 'at Edited.fail (contracts/Edited.sol:15)' });
    } finally {
      rmSync(join(PROJECT, 'contracts', 'Edited.sol'), { force: true });
    }
  });

  describe('every networks.hardhat setting has the effect it has on Hardhat’s network', () => {
    /** The probe's observations with the plugin and without it, for one networks.hardhat value. */
    const both = async (networksHardhat: object, probe: Record<string, string> = {}) => {
      const answers = [];
      for (const own of ['0', '1']) {
        const run = await runNode(['probe-config.cjs'], {
          cwd: PROJECT,
          env: env({ NETWORKS_HARDHAT: JSON.stringify(networksHardhat), HARDHAT_OWN_NETWORK: own, ...probe }),
        });
        expect(run.code, `${own === '1' ? "Hardhat's network" : 'chain-sim'}: ${run.stdout}${run.stderr}`).to.equal(0);
        answers.push(JSON.parse(run.stdout) as Record<string, unknown>);
      }
      expect(answers[0], 'chain-sim, then Hardhat').to.deep.equal(answers[1]);
      return answers[0]!;
    };

    it('none set: Hardhat’s defaults', async () => {
      const seen = await both({});
      expect(seen).to.deep.include({ chainId: '0x7a69', netVersion: '31337', coinbase: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e' });
      expect(seen.accounts).to.have.length(20);
    });

    it('chainId, hardfork, blockGasLimit, initialBaseFeePerGas, coinbase, initialDate, allowBlocksWithSameTimestamp, allowUnlimitedContractSize, HD accounts, mining (manual, fifo), throwOnCallFailures, gas, gasPrice', async () => {
      const seen = await both(
        {
          chainId: 4242,
          hardfork: 'cancun',
          blockGasLimit: 12_000_000,
          initialBaseFeePerGas: 7,
          coinbase: '0x00000000000000000000000000000000000000bb',
          initialDate: '2020-01-01T00:00:00Z',
          allowBlocksWithSameTimestamp: true,
          allowUnlimitedContractSize: true,
          accounts: {
            mnemonic: 'myth like bonus scare over problem client lizard pioneer submit female collect',
            path: "m/44'/60'/1'/0",
            count: 3,
            initialIndex: 2,
            passphrase: 'pw',
            accountsBalance: '123456789000000000000',
          },
          mining: { auto: false, interval: 0, mempool: { order: 'fifo' } },
          throwOnCallFailures: false,
          gas: 1_000_000,
          gasPrice: 3_000_000_000,
        },
        { PROBE_TIMESTAMP: '1' },
      );
      expect(seen).to.deep.include({
        chainId: '0x1092',
        head: { number: '0x0', gasLimit: '0xb71b00', baseFeePerGas: '0x7' },
        headTimestamp: 1_577_836_800,
        blockFields: ['withdrawalsRoot', 'blobGasUsed'],
        push0: true,
        coinbase: '0x00000000000000000000000000000000000000bb',
        mempoolOrder: ['low', 'high'],
        bigContract: 'code of 24577 bytes',
        failedCall: '0x',
        sameTimestamp: 'allowed',
      });
      expect(seen.accounts).to.have.length(3);
      expect(seen.balances).to.deep.equal(Array(3).fill('0x6b14e9f7e4f5a5000'));
      expect(seen.transfer).to.deep.equal({ automined: false, from: (seen.accounts as string[])[0], gas: '0xf4240', gasPrice: '0xb2d05e00', type: '0x0' });
    });

    it('accounts by key with balances, london, automine with a random interval, throwOnTransactionFailures: false, from', async () => {
      const seen = await both(
        {
          hardfork: 'london',
          accounts: [
            { privateKey: `0x${'00'.repeat(31)}01`, balance: '1000000000000000000000' },
            { privateKey: `0x${'00'.repeat(31)}02`, balance: '5' },
          ],
          mining: { auto: true, interval: [100, 200] },
          throwOnTransactionFailures: false,
          from: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
        },
        { PROBE_INTERVAL: '1' },
      );
      expect(seen).to.deep.include({
        accounts: ['0x7e5f4552091a69125d5dfcb7b8c2659029395bdf', '0x2b5ad5c4795c026514f8317c7a215e218dccd6cf'],
        balances: ['0x3635c9adc5dea00000', '0x5'],
        blockFields: [],
        push0: false,
        failedSend: 'hash',
        sameTimestamp: 'refused',
        intervalMined: true,
      });
      expect(seen.transfer).to.include({ automined: true, from: '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf' });
    });

    it('forking: url, blockNumber and httpHeaders; enabled: false', async () => {
      proxy.headers.length = 0;
      const forked = await both({ forking: { url: proxy.url, blockNumber: 1, httpHeaders: { 'X-Probe': 'yes' } } }, { PROBE_ADDRESS: OTHER });
      expect(forked).to.deep.include({ probed: '0x1234', chainId: '0x7a69' });
      expect((forked.head as { number: string }).number).to.equal('0x1');
      expect(proxy.headers.length).to.be.greaterThan(0);
      expect(proxy.headers.every((headers) => headers['x-probe'] === 'yes')).to.equal(true);
      const local = await both({ forking: { url: proxy.url, enabled: false } }, { PROBE_ADDRESS: OTHER });
      expect(local).to.deep.include({ probed: '0x0' });
      expect((local.head as { number: string }).number).to.equal('0x0');
    });
  });

  /** Terminal colour codes (ESC [ ... m). */
  const ANSI_COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

  describe('what chain-sim cannot honour is refused by name', () => {
    const refusal = async (networksHardhat: object, message: string) => {
      const run = await hardhat(['test', '--no-compile'], { NETWORKS_HARDHAT: JSON.stringify(networksHardhat) });
      expect(run.code, run.stdout + run.stderr).to.equal(1);
      // Hardhat's own words for a plugin's error come first (a stack trace follows on CI servers only,
      // where CI=true also colours them: the colour codes are taken out).
      const firstLine = run.stderr.split('\n')[0]!.replace(ANSI_COLOURS, '');
      expect(firstLine).to.contain(`Error in plugin chain-sim: ${message}`);
    };

    it('minGasPrice, enableRip7212 before osaka: Hardhat stops before running anything', async () => {
      // (Hardhat 2.29 allows minGasPrice before london only; enableTransientStorage before cancun it refuses itself.)
      await refusal({ hardfork: 'berlin', minGasPrice: 1 }, 'networks.hardhat.minGasPrice: chain-sim has no minimum gas price');
      await refusal(
        { hardfork: 'prague', enableRip7212: true },
        'networks.hardhat.enableRip7212: chain-sim has the P-256 precompile at 0x100 with the hardfork',
      );
    });

    it("values chain-sim's own checks refuse, named by their Hardhat field", async () => {
      const run = await hardhat(['test', '--no-compile'], { NETWORKS_HARDHAT: JSON.stringify({ blockGasLimit: 1000 }) });
      expect(run.code).to.not.equal(0);
      expect(run.stdout + run.stderr).to.contain('networks.hardhat.blockGasLimit: must be between 5000 and');
    });
  });
});
