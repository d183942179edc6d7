/**
 * Each client gets its own tool's rules (issue 33), with the real clients against one
 * `node bin/chain-sim.js` process and its default options: viem (a test client in anvil mode,
 * and a public and a wallet client) and ethers v6 send a transaction that reverts and get its
 * hash and a receipt with status 0, as against go-ethereum or Anvil; fetch reads chain-sim's own
 * client version; then Hardhat's chai matchers, through hardhat-ethers and Hardhat 2's HTTP
 * provider (which names itself in User-Agent), pass against the same node as Hardhat's
 * `localhost` network (where the send itself must fail, as `hardhat node` answers it) and under
 * another network name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { JsonRpcProvider, Wallet, isError } from 'ethers';
import { createPublicClient, createTestClient, createWalletClient, http, publicActions, walletActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ADDRESSES, KEYS } from '../helpers/chain.js';
import { type RunningCli, runNode, startCli } from '../helpers/cli.js';
import { CHAIN_SIM_CHAIN } from '../helpers/viem.js';

const MATCHERS_PROJECT = fileURLToPath(new URL('../../../test/e2e/hardhat-matchers/', import.meta.url));
const HARDHAT = fileURLToPath(new URL('../../../node_modules/hardhat/internal/cli/cli.js', import.meta.url));

/** A contract whose every call reverts without data: PUSH1 0, PUSH1 0, REVERT. */
const REVERTING_CODE = '0x60006000fd';
const REVERTER = '0x00000000000000000000000000000000000feed5';

describe('One node, each client its own rules: viem, ethers, fetch and Hardhat', function () {
  this.timeout(300_000);
  let cli: RunningCli;
  let out: string;

  before(async () => {
    cli = await startCli(['--port', '0', '--hardfork', 'prague']);
    out = mkdtempSync(join(tmpdir(), 'chain-sim-client-rules-'));
  });
  after(async () => {
    await cli?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  async function clientVersionOverFetch(): Promise<string> {
    const response = await fetch(cli.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] }),
    });
    return ((await response.json()) as { result: string }).result;
  }

  it("viem's test client (anvil mode) and a wallet client: a send that reverts answers its hash; the receipt says reverted", async () => {
    const transport = http(cli.url);
    const test = createTestClient({ chain: CHAIN_SIM_CHAIN, mode: 'anvil', transport }).extend(publicActions).extend(walletActions);
    await test.setCode({ address: REVERTER, bytecode: REVERTING_CODE });
    // eth_sendTransaction from one of the node's accounts, through the test client.
    const fromNode = await test.sendTransaction({ account: ADDRESSES[0] as `0x${string}`, chain: CHAIN_SIM_CHAIN, to: REVERTER, gas: 100_000n });
    expect((await test.waitForTransactionReceipt({ hash: fromNode })).status).to.equal('reverted');
    // eth_sendRawTransaction signed by viem.
    const wallet = createWalletClient({ account: privateKeyToAccount(KEYS[1]), chain: CHAIN_SIM_CHAIN, transport });
    const signed = await wallet.sendTransaction({ to: REVERTER, gas: 100_000n });
    const reader = createPublicClient({ chain: CHAIN_SIM_CHAIN, transport });
    const receipt = await reader.waitForTransactionReceipt({ hash: signed });
    expect(receipt).to.include({ status: 'reverted', transactionHash: signed, to: REVERTER });
  });

  it('ethers v6: the send answers a TransactionResponse; wait() throws CALL_EXCEPTION with the status-0 receipt, as against go-ethereum', async () => {
    const provider = new JsonRpcProvider(cli.url, undefined, { staticNetwork: true, pollingInterval: 50 });
    try {
      for (const signer of [await provider.getSigner(0), new Wallet(KEYS[2], provider)]) {
        const sent = await signer.sendTransaction({ to: REVERTER, gasLimit: 100_000 });
        expect(sent.hash).to.match(/^0x[0-9a-f]{64}$/);
        const failure = await sent.wait().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isError(failure, 'CALL_EXCEPTION'), String(failure)).to.equal(true);
        if (!isError(failure, 'CALL_EXCEPTION')) return;
        expect(failure.receipt?.status).to.equal(0);
        expect(failure.receipt?.hash).to.equal(sent.hash);
      }
    } finally {
      provider.destroy();
    }
  });

  it("fetch (no Hardhat User-Agent) reads chain-sim's own client version", async () => {
    expect(await clientVersionOverFetch()).to.match(/^chain-sim\/v\d+\.\d+\.\d+\/[a-z0-9]+-[a-z0-9]+\/node\d+\./);
  });

  for (const network of ['localhost', 'chainsim']) {
    it(`then Hardhat's chai matchers pass against the same node as network ${network}`, async () => {
      const run = await runNode([HARDHAT, 'test', '--network', network], {
        cwd: MATCHERS_PROJECT,
        env: { CHAIN_SIM_URL: cli.url, HARDHAT_OUT: out, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).to.equal(0);
      expect(run.stdout).to.match(/5 passing/);
      expect(run.stdout).to.not.match(/failing/);
      // Hardhat's forms went to Hardhat's requests only.
      expect(await clientVersionOverFetch()).to.match(/^chain-sim\/v/);
    });
  }
});
