/**
 * The provider chain-sim/hardhat puts under Hardhat 2's `hardhat` network, driven directly (no
 * Hardhat process): Hardhat's in-process error forms with the running Hardhat's own error classes,
 * throwOnTransactionFailures / throwOnCallFailures, the stubbed methods, the events, and
 * hardhat_reset leaving a fork for a local chain as Hardhat 2's does. The expected forms were
 * recorded from Hardhat 2.29.1's network (EDR) with the same calls.
 */
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { Interface } from 'ethers';
import {
  HardhatNetworkProvider,
  type HardhatProviderErrors,
  HardhatRevertError,
  RESET_EVENT,
  REVERT_SNAPSHOT_EVENT,
} from '../../src/hardhat/hardhat2/provider.js';
import type { ChainSimOptions } from '../../src/options.js';
import { createServer } from '../../src/server/index.js';
import { compileProject, deploy, hardhat3Project, word } from '../helpers/artifacts.js';
import { ADDRESSES, artifact } from '../helpers/chain.js';

const require = createRequire(import.meta.url);
const errors = require('hardhat/internal/core/providers/errors') as HardhatProviderErrors & Record<string, new (...args: never[]) => Error>;
const token = artifact('Token');
const TOKEN = new Interface(token.abi);
const OWNER = ADDRESSES[0]!;
const OTHER = ADDRESSES[1]!;
/** Not one of the chain's accounts (those are funded on forks too). */
const STRANGER = '0x00000000000000000000000000000000000000aa';

const STRICT = { throwOnTransactionFailures: true, throwOnCallFailures: true };

describe('chain-sim/hardhat: the provider under the hardhat network', () => {
  const made: HardhatNetworkProvider[] = [];
  const provider = (options: ChainSimOptions = {}, behaviour = STRICT) => {
    const p = new HardhatNetworkProvider({ hardhatNode: true, logger: () => {}, ...options }, behaviour, errors);
    made.push(p);
    return p;
  };
  afterEach(async () => {
    await Promise.all(made.splice(0).map((p) => p.close()));
  });

  /** Deploys the Token fixture; the owner holds all 1000. */
  async function deployToken(p: HardhatNetworkProvider): Promise<string> {
    const data = token.bytecode + TOKEN.encodeDeploy(['T', 'T', 1000n]).slice(2);
    const hash = (await p.request({ method: 'eth_sendTransaction', params: [{ from: OWNER, data }] })) as string;
    const receipt = (await p.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string };
    return receipt.contractAddress;
  }
  const failing = (p: HardhatNetworkProvider, method: string, params: unknown[]) =>
    p.request({ method, params }).then(
      () => expect.fail(`${method} succeeded`),
      (e: unknown) => e,
    );

  it("answers a failed send with Hardhat's revert error: message, revert data, transaction hash, no code", async () => {
    const p = provider();
    const to = await deployToken(p);
    const data = TOKEN.encodeFunctionData('transfer', [OWNER, 5000n]);
    // Hardhat's wrappers give every send a gas limit on this network (FixedGasProvider); without one chain-sim estimates first.
    const error = (await failing(p, 'eth_sendTransaction', [{ from: OTHER, to, data, gas: '0x100000' }])) as HardhatRevertError;
    expect(error).to.be.instanceOf(HardhatRevertError);
    expect(error.message).to.equal("VM Exception while processing transaction: reverted with reason string 'Token: insufficient balance'");
    expect(error.data).to.equal(TOKEN.encodeErrorResult('Error(string)', ['Token: insufficient balance']));
    expect(error.transactionHash).to.match(/^0x[0-9a-f]{64}$/);
    expect(error).to.not.have.property('code');
    expect(error.stack!.split('\n')[0]).to.equal(`Error: ${error.message}`);
    const receipt = (await p.request({ method: 'eth_getTransactionReceipt', params: [error.transactionHash] })) as { status: string };
    expect(receipt.status).to.equal('0x0');
  });

  it('answers a reverted eth_call and eth_estimateGas with the same form (no hash)', async () => {
    const p = provider();
    const to = await deployToken(p);
    const data = TOKEN.encodeFunctionData('transferFrom', [OWNER, OTHER, 1n]);
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const error = (await failing(p, method, [{ from: OTHER, to, data }])) as HardhatRevertError;
      expect(error, method).to.be.instanceOf(HardhatRevertError);
      expect(error.message).to.equal(`VM Exception while processing transaction: reverted with an unrecognized custom error (return data: ${error.data})`);
      expect(error.data).to.equal(TOKEN.encodeErrorResult('InsufficientAllowance', [0n, 1n]));
      expect(error.transactionHash).to.equal(undefined);
    }
  });

  it('throwOnTransactionFailures: false answers the hash; throwOnCallFailures: false the revert data', async () => {
    const p = provider({}, { throwOnTransactionFailures: false, throwOnCallFailures: false });
    const to = await deployToken(p);
    const data = TOKEN.encodeFunctionData('transfer', [OWNER, 5000n]);
    const hash = await p.request({ method: 'eth_sendTransaction', params: [{ from: OTHER, to, data, gas: '0x100000' }] });
    expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    expect(await p.request({ method: 'eth_call', params: [{ from: OTHER, to, data }] })).to.equal(
      TOKEN.encodeErrorResult('Error(string)', ['Token: insufficient balance']),
    );
    // eth_estimateGas fails either way, as on Hardhat's network.
    expect(await failing(p, 'eth_estimateGas', [{ from: OTHER, to, data }])).to.be.instanceOf(HardhatRevertError);
  });

  it("other failures are Hardhat's ProviderError classes: unknown methods -32004, bad arguments InvalidArgumentsError", async () => {
    const p = provider();
    const unknown = (await failing(p, 'foo_bar', [])) as Error & { code: number; data: unknown };
    expect(unknown).to.be.instanceOf(errors.ProviderError);
    expect([unknown.code, unknown.message]).to.deep.equal([-32004, 'Method foo_bar is not supported']);
    expect(unknown.data).to.deep.equal({ method: 'foo_bar', params: [] });
    const invalid = (await failing(p, 'eth_getBalance', ['0x12'])) as Error & { code: number };
    expect(invalid).to.be.instanceOf(errors.InvalidArgumentsError);
    expect(invalid.code).to.equal(-32602);
    const funds = (await failing(p, 'eth_sendTransaction', [{ from: OWNER, to: OTHER, value: `0x${'f'.repeat(40)}` }])) as Error & { code: number };
    expect(funds).to.be.instanceOf(errors.ProviderError);
    expect(funds.code).to.equal(-32000);
    const objectParams = (await p.request({ method: 'eth_chainId', params: {} }).catch((e: unknown) => e)) as Error;
    expect(objectParams).to.be.instanceOf(errors.InvalidInputError);
    expect(objectParams.message).to.equal("Hardhat Network doesn't support JSON-RPC params sent as an object");
  });

  it('stubs what Hardhat stubs, without starting a chain', async () => {
    const p = provider();
    expect(await p.request({ method: 'hardhat_getStackTraceFailuresCount' })).to.equal(0);
    expect(await p.request({ method: 'hardhat_addCompilationResult', params: ['0.8.30', {}, {}] })).to.equal(true);
    expect((p as unknown as { inner: unknown }).inner).to.equal(undefined);
  });

  it('emits hardhatNetworkRevertSnapshot after evm_revert and hardhatNetworkReset after hardhat_reset', async () => {
    const p = provider();
    const events: string[] = [];
    p.on(REVERT_SNAPSHOT_EVENT, () => events.push('revert'));
    p.on(RESET_EVENT, () => events.push('reset'));
    const id = await p.request({ method: 'evm_snapshot' });
    await p.request({ method: 'evm_revert', params: [id] });
    expect(await p.request({ method: 'hardhat_reset' })).to.equal(true);
    expect(events).to.deep.equal(['revert', 'reset']);
  });

  it('delivers subscriptions as EIP-1193 message events and as Hardhat’s notification events', async () => {
    const p = provider();
    const messages: unknown[] = [];
    const notifications: unknown[] = [];
    p.on('message', (message) => messages.push(message));
    p.on('notification', (notification) => notifications.push(notification));
    const subscription = await p.request({ method: 'eth_subscribe', params: ['newHeads'] });
    await p.request({ method: 'evm_mine' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages).to.have.length(1);
    expect(messages[0]).to.deep.include({ type: 'eth_subscription' });
    expect(notifications).to.deep.equal([(messages[0] as { data: unknown }).data]);
    expect((notifications[0] as { subscription: string }).subscription).to.equal(subscription);
  });

  it('hardhat_reset without forking leaves the fork the chain started on, for a local chain (as Hardhat 2)', async () => {
    const upstream = await createServer({ quiet: true });
    const { url } = await upstream.listen(0, '127.0.0.1');
    try {
      const rpc = (method: string, params: unknown[] = []) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      await rpc('hardhat_setBalance', [STRANGER, '0x1234']);
      await rpc('evm_mine');
      const p = provider({ forking: { url, blockNumber: 1 } });
      expect(await p.request({ method: 'eth_blockNumber' })).to.equal('0x1');
      expect(await p.request({ method: 'eth_getBalance', params: [STRANGER, 'latest'] })).to.equal('0x1234');
      await p.request({ method: 'hardhat_reset', params: [] });
      expect(await p.request({ method: 'eth_blockNumber' })).to.equal('0x0');
      expect(await p.request({ method: 'eth_getBalance', params: [STRANGER, 'latest'] })).to.not.equal('0x1234');
      // and to a fork again, by URL
      await p.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: url, blockNumber: 1 } }] });
      expect(await p.request({ method: 'eth_getBalance', params: [STRANGER, 'latest'] })).to.equal('0x1234');
      const bad = (await failing(p, 'hardhat_reset', [{ forking: { jsonRpcUrl: 'ftp://x' } }])) as Error;
      expect(bad).to.be.instanceOf(errors.InvalidArgumentsError);
    } finally {
      await upstream.close();
    }
  });

  it('explains a failure with the project’s artifacts: the custom error in the message, the Solidity frames in the stack', async () => {
    const run = compileProject();
    const p = provider({ artifacts: hardhat3Project() });
    const at = await deploy(p, run, 'Token', word(1000));
    const token = new Interface(run.output.contracts['contracts/Token.sol']!.Token!.abi as never);
    const transfer = { from: OTHER, to: at, gas: '0x100000', data: token.encodeFunctionData('transfer', [OWNER, 5n]) };
    const expected = "VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(0, 5)'";
    const frames = ['    at Token._transfer (contracts/Token.sol:63)', '    at Token.transfer (contracts/Token.sol:31)'];
    const send = (await failing(p, 'eth_sendTransaction', [transfer])) as HardhatRevertError;
    expect(send).to.be.instanceOf(HardhatRevertError);
    expect(send.message).to.equal(expected);
    expect(send.data).to.equal(token.encodeErrorResult('InsufficientBalance', [0n, 5n]));
    expect(send.stack!.split('\n').slice(1, 3)).to.deep.equal(frames);
    const call = (await failing(p, 'eth_call', [transfer, 'latest'])) as HardhatRevertError;
    expect(call.message).to.equal(expected);
    expect(call.stack!.split('\n').slice(1, 3)).to.deep.equal(frames);
    // Without artifacts (none, not even the working directory's): Hardhat's words for an unknown error, no frames.
    const bare = provider({ artifacts: false });
    const elsewhere = await deploy(bare, run, 'Token', word(1000));
    const unexplained = (await failing(bare, 'eth_call', [{ ...transfer, to: elsewhere }, 'latest'])) as HardhatRevertError;
    expect(unexplained.message).to.match(/^VM Exception while processing transaction: reverted with an unrecognized custom error/);
    expect(unexplained.stack!.split('\n')[1]).to.not.match(/\.sol/);
  });
});
