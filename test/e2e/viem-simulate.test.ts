/**
 * viem's simulation actions against a real `npx chain-sim` HTTP server: simulateCalls (plain,
 * traceAssetChanges, account with state overrides), simulateBlocks, and call({ stateOverride }).
 */
import { expect } from 'chai';
import { type Abi, type Hex, createPublicClient, createWalletClient, encodeFunctionData, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { KEYS, artifact } from '../helpers/chain.js';
import { type RunningCli, startCli } from '../helpers/cli.js';
import { CHAIN_SIM_CHAIN } from '../helpers/viem.js';

const chain = CHAIN_SIM_CHAIN;

const RECIPIENT = '0x00000000000000000000000000000000000000b0';
/** NUMBER, returned as a word. */
const RETURN_NUMBER: Hex = '0x4360005260206000f3';

describe('viem simulateCalls, simulateBlocks and call({ stateOverride }) against the chain-sim CLI', function () {
  this.timeout(60_000);
  // The chain-sim CLI (bin/chain-sim.js, what `npx chain-sim` runs) on a free port.
  let cli: RunningCli | undefined;
  after(async () => {
    await cli?.stop();
  });
  const running = () => cli!;
  const holder = privateKeyToAccount(KEYS[0]);
  const token = artifact('Token');
  const abi = token.abi as Abi;
  let tokenAddress: Hex;

  const clients = () => {
    const transport = http(running().url);
    return { client: createPublicClient({ chain, transport }), wallet: createWalletClient({ chain, transport, account: holder }) };
  };

  before(async () => {
    cli = await startCli(['--port', '0']);
    const { client, wallet } = clients();
    const hash = await wallet.deployContract({ abi, bytecode: token.bytecode as Hex, args: ['Token', 'TOK', 1_000_000n] });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    tokenAddress = receipt.contractAddress!;
  });

  it('simulateCalls: a token transfer succeeds with its Transfer log, and nothing is sent', async () => {
    const { client } = clients();
    const before = await client.getBlockNumber();
    const { results } = await client.simulateCalls({
      account: holder.address,
      calls: [{ to: tokenAddress, abi, functionName: 'transfer', args: [RECIPIENT, 100n] }],
    });
    expect(results).to.have.length(1);
    expect(results[0]!.status).to.equal('success');
    expect(results[0]!.result).to.equal(true);
    expect(results[0]!.logs).to.have.length(1);
    expect(results[0]!.logs![0]!.address.toLowerCase()).to.equal(tokenAddress.toLowerCase());
    expect(await client.getBlockNumber()).to.equal(before);
    expect(await client.readContract({ address: tokenAddress, abi, functionName: 'balanceOf', args: [RECIPIENT] })).to.equal(0n);
  });

  it('simulateCalls with traceAssetChanges: the ether and token the account gives away', async () => {
    const { client } = clients();
    const { results, assetChanges } = await client.simulateCalls({
      account: holder.address,
      traceAssetChanges: true,
      calls: [
        { to: RECIPIENT, value: parseEther('1') },
        { to: tokenAddress, abi, functionName: 'transfer', args: [RECIPIENT, 250n] },
      ],
    });
    expect(results.map((r) => r.status)).to.deep.equal(['success', 'success']);
    const eth = assetChanges.find((change) => change.token.address.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
    const tok = assetChanges.find((change) => change.token.address.toLowerCase() === tokenAddress.toLowerCase());
    // Without validation the calls pay no gas: exactly the value moves.
    expect(eth?.value.diff).to.equal(-parseEther('1'));
    expect(tok?.value.diff).to.equal(-250n);
    expect(tok?.token.symbol).to.equal('TOK');
  });

  it('simulateCalls with an account that has nothing and a balance override', async () => {
    const { client } = clients();
    const pauper = '0x00000000000000000000000000000000000000aa';
    const call = { to: RECIPIENT, value: parseEther('2') } as const;
    const poor = await client.simulateCalls({ account: pauper, calls: [call] }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(poor?.message).to.match(/insufficient funds/i);
    const { results } = await client.simulateCalls({
      account: pauper,
      calls: [call],
      stateOverrides: [{ address: pauper, balance: parseEther('10') }],
    });
    expect(results[0]!.status).to.equal('success');
    expect(await client.getBalance({ address: pauper })).to.equal(0n);
  });

  it('simulateBlocks: two blocks, the second with block and state overrides', async () => {
    const { client } = clients();
    const head = await client.getBlock();
    const probe = '0x00000000000000000000000000000000000000c0';
    const blocks = await client.simulateBlocks({
      blocks: [
        { calls: [{ account: holder.address, to: RECIPIENT, value: 1n }] },
        {
          // viem pairs answered blocks with requested ones: no number gap (go-ethereum would fill it with empty blocks).
          blockOverrides: { number: head.number + 2n, time: head.timestamp + 1000n },
          stateOverrides: [{ address: probe, code: RETURN_NUMBER }],
          calls: [{ account: holder.address, to: probe, data: '0x' }],
        },
      ],
    });
    expect(blocks).to.have.length(2);
    expect(blocks[0]!.number).to.equal(head.number + 1n);
    expect(blocks[0]!.parentHash).to.equal(head.hash);
    expect(blocks[0]!.calls[0]!.status).to.equal('success');
    const last = blocks[1]!;
    expect(last.parentHash).to.equal(blocks[0]!.hash);
    expect(last.number).to.equal(head.number + 2n);
    expect(last.timestamp).to.equal(head.timestamp + 1000n);
    expect(BigInt(last.calls[0]!.data)).to.equal(head.number + 2n);
  });

  it('call({ stateOverride }): code and balance overrides, the chain untouched', async () => {
    const { client } = clients();
    const probe = '0x00000000000000000000000000000000000000c1';
    const { data } = await client.call({ to: probe, stateOverride: [{ address: probe, code: RETURN_NUMBER, balance: 1n }] });
    expect(BigInt(data!)).to.equal(await client.getBlockNumber());
    expect(await client.getCode({ address: probe })).to.equal(undefined);
    // A balance override seen by the EVM: BALANCE(CALLDATALOAD(0)) of the overridden account.
    const balanceOf: Hex = '0x6000353160005260206000f3';
    const rich = '0x00000000000000000000000000000000000000c2';
    const { data: balance } = await client.call({
      to: probe,
      data: `0x${rich.slice(2).padStart(64, '0')}`,
      stateOverride: [
        { address: probe, code: balanceOf },
        { address: rich, balance: 12345n },
      ],
    });
    expect(BigInt(balance!)).to.equal(12345n);
    expect(await client.getBalance({ address: rich })).to.equal(0n);
    const calldata = encodeFunctionData({ abi, functionName: 'balanceOf', args: [RECIPIENT] });
    expect((await client.call({ to: tokenAddress, data: calldata, stateOverride: [] })).data).to.match(/^0x0{64}$/);
  });
});
