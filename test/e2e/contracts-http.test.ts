/**
 * `npx chain-sim` started in a Hardhat project (compiled by `hardhat compile`) finds its artifacts
 * by itself, and viem's and ethers' users get the failures explained over HTTP: the decoded
 * reason in the message, the revert bytes where the clients decode them, the `decoded` member
 * reachable from the error they throw, and the node's console printing it.
 */
import { expect } from 'chai';
import { Contract, JsonRpcProvider, getAddress } from 'ethers';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, http } from 'viem';
import { DEPLOYER, hardhat2Project } from '../helpers/artifacts.js';
import { type RunningCli, startCli } from '../helpers/cli.js';
import { CHAIN_SIM_CHAIN } from '../helpers/viem.js';

const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

interface HardhatArtifact {
  abi: readonly object[];
  bytecode: `0x${string}`;
  linkReferences: Record<string, Record<string, { start: number }[]>>;
}

function artifact(project: string, file: string, name: string): HardhatArtifact {
  return JSON.parse(readFileSync(path.join(project, 'artifacts', 'contracts', file, `${name}.json`), 'utf8')) as HardhatArtifact;
}

/** The artifact's bytecode with its libraries linked in. */
function linked(artifact: HardhatArtifact, libraries: Record<string, string>): `0x${string}` {
  let code = artifact.bytecode.slice(2);
  for (const byName of Object.values(artifact.linkReferences)) {
    for (const [name, places] of Object.entries(byName)) {
      for (const { start } of places) code = code.slice(0, start * 2) + libraries[name]!.slice(2).toLowerCase() + code.slice(start * 2 + 40);
    }
  }
  return `0x${code}`;
}

type RawError = {
  code: number;
  message: string;
  data: unknown;
  decoded?: { message: string; reason: { name?: string }; stack: { contract: string; function: string }[] };
};

describe('artifacts over HTTP: npx chain-sim in a Hardhat project, with viem and ethers', function () {
  this.timeout(180_000);
  let project: string;
  let cli: RunningCli;
  let token: `0x${string}`;
  let vault: `0x${string}`;

  before(async () => {
    project = await hardhat2Project();
    // No --artifacts: the working directory is a Hardhat project. --hardhat-node: Hardhat's send errors for viem and ethers too.
    cli = await startCli(['--port', '0', '--hardhat-node'], { cwd: project });
    const transport = http(cli.url);
    const wallet = createWalletClient({ chain: CHAIN_SIM_CHAIN, transport, account: DEPLOYER });
    const client = createPublicClient({ chain: CHAIN_SIM_CHAIN, transport });
    const deployed = async (hash: `0x${string}`) => (await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).contractAddress!;
    const Token = artifact(project, 'Token.sol', 'Token');
    token = await deployed(await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: [1000n] }));
    const LinkedMath = artifact(project, 'SafeMath.sol', 'LinkedMath');
    const library = await deployed(await wallet.deployContract({ abi: LinkedMath.abi, bytecode: LinkedMath.bytecode }));
    const Vault = artifact(project, 'Vault.sol', 'Vault');
    vault = await deployed(await wallet.deployContract({ abi: Vault.abi, bytecode: linked(Vault, { LinkedMath: library }), args: [token] }));
  });
  after(async () => {
    await cli?.stop();
  });

  it('viem: readContract decodes the custom error from the revert bytes, and the node’s words are in its message', async () => {
    const client = createPublicClient({ chain: CHAIN_SIM_CHAIN, transport: http(cli.url) });
    const { abi } = artifact(project, 'Vault.sol', 'Vault');
    let caught: unknown;
    try {
      await client.simulateContract({ address: vault, abi, functionName: 'withdraw', args: [5n], account: DEPLOYER });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(BaseError);
    const reverted = (caught as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError;
    // The Vault's ABI has no InsufficientBalance (the Token raises it): viem alone sees only its selector; the node's message names it.
    expect(reverted.data).to.equal(undefined);
    expect(reverted.signature).to.equal('0xcf479181');
    expect((caught as BaseError).message).to.include("execution reverted: custom error 'InsufficientBalance(0, 5)'");
    // Given the Token's errors too, viem decodes the revert bytes itself: the data is the bytes it expects.
    const token = artifact(project, 'Token.sol', 'Token').abi.filter((e) => (e as { type: string }).type === 'error');
    try {
      await client.simulateContract({ address: vault, abi: [...abi, ...token], functionName: 'withdraw', args: [5n], account: DEPLOYER });
    } catch (error) {
      caught = error;
    }
    const decoded = (caught as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError;
    expect(decoded.data?.errorName).to.equal('InsufficientBalance');
    expect(decoded.data?.args).to.deep.equal([0n, 5n]);
  });

  it('viem: call and sendTransaction reach the decoded explanation through the error’s cause', async () => {
    const { abi } = artifact(project, 'Token.sol', 'Token');
    const client = createPublicClient({ chain: CHAIN_SIM_CHAIN, transport: http(cli.url) });
    const data = (await import('viem')).encodeFunctionData({ abi, functionName: 'transfer', args: [OTHER, 5000n] });
    let caught: unknown;
    try {
      await client.call({ account: DEPLOYER, to: token, data });
    } catch (error) {
      caught = error;
    }
    const raw = (caught as BaseError).walk() as unknown as RawError;
    expect(raw.code).to.equal(3);
    expect(raw.decoded!.reason.name).to.equal('InsufficientBalance');
    expect(raw.decoded!.stack.map((f) => `${f.contract}.${f.function}`)).to.deep.equal(['Token._transfer', 'Token.transfer']);

    // A send with its gas given (no estimate first): Hardhat's failed-send error, explained.
    const wallet = createWalletClient({ chain: CHAIN_SIM_CHAIN, transport: http(cli.url), account: DEPLOYER });
    try {
      await wallet.sendTransaction({ to: token, data, gas: 200_000n });
      caught = undefined;
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(BaseError);
    const sent = (caught as BaseError).walk() as unknown as RawError;
    expect(sent.message).to.equal("Error: VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(1000, 5000)'");
    expect(sent.decoded!.stack.map((f) => `${f.contract}.${f.function}`)).to.deep.equal(['Token._transfer', 'Token.transfer']);
    expect((caught as BaseError).message).to.include("reverted with custom error 'InsufficientBalance(1000, 5000)'");
  });

  it('ethers: the contract’s custom error decoded by ethers from the revert bytes, chain-sim’s explanation in error.info.error', async () => {
    const provider = new JsonRpcProvider(cli.url, undefined, { cacheTimeout: -1, staticNetwork: true });
    const signer = await provider.getSigner(DEPLOYER);
    const contract = new Contract(
      vault,
      [...artifact(project, 'Vault.sol', 'Vault').abi, ...artifact(project, 'Token.sol', 'Token').abi.filter((e) => (e as { type: string }).type === 'error')],
      signer,
    );
    let caught: { code?: string; revert?: { name: string; args: unknown[] }; info?: { error?: RawError } } | undefined;
    try {
      await contract.getFunction('withdraw').staticCall(5n);
    } catch (error) {
      caught = error as typeof caught;
    }
    expect(caught?.code).to.equal('CALL_EXCEPTION');
    expect(caught?.revert?.name).to.equal('InsufficientBalance');
    expect(caught?.revert?.args.map(String)).to.deep.equal(['0', '5']);
    // A Contract rethrows its own error (ethers keeps no RPC error there); the provider's call keeps it as info.error.
    const direct = await provider.call({ from: DEPLOYER, to: vault, data: contract.interface.encodeFunctionData('withdraw', [5n]) }).then(
      () => undefined,
      (error: unknown) => error as { code?: string; info?: { error?: RawError } },
    );
    expect(direct?.code).to.equal('CALL_EXCEPTION');
    expect(direct?.info?.error?.message).to.equal("execution reverted: custom error 'InsufficientBalance(0, 5)'");
    expect(direct?.info?.error?.decoded?.stack.map((f) => `${f.contract}.${f.function}`)).to.deep.equal([
      'Token._transfer',
      'Token.transfer',
      'Vault.withdraw',
    ]);
    provider.destroy();
  });

  it('the node’s console prints the failure and which contract logged each console.log line', async () => {
    const printed = cli.output();
    expect(printed).to.include(
      "Call failed: VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(0, 5)'\n" +
        '    at Token._transfer (contracts/Token.sol:63)\n    at Token.transfer (contracts/Token.sol:31)\n    at Vault.withdraw (contracts/Vault.sol:21)',
    );
    expect(printed).to.include('[Token] minting 1000\n');
    expect(printed).to.include('[Vault] withdraw 5\n');
  });

  it('viem and ethers: debug_traceTransaction’s call tracer and trace_transaction name the frames, arguments, results and events', async () => {
    const wallet = createWalletClient({ chain: CHAIN_SIM_CHAIN, transport: http(cli.url), account: DEPLOYER });
    const client = createPublicClient({ chain: CHAIN_SIM_CHAIN, transport: http(cli.url) });
    const Token = artifact(project, 'Token.sol', 'Token');
    const Vault = artifact(project, 'Vault.sol', 'Vault');
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [vault, 10n] }),
      pollingInterval: 20,
    });
    const hash = await wallet.writeContract({ address: vault, abi: Vault.abi, functionName: 'withdraw', args: [5n] });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });

    type Frame = Record<string, unknown> & { calls?: Frame[]; logs?: (Record<string, unknown> & { decodedArgs?: { name: string; value: unknown }[] })[] };
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    const viaViem = (await client.request({ method: 'debug_traceTransaction', params: [hash, config] } as never)) as Frame;
    expect(viaViem).to.deep.include({ contract: 'Vault', function: 'withdraw', decodedInput: [{ name: 'amount', type: 'uint256', value: '5' }] });
    const [log, library, transfer] = viaViem.calls!;
    // console.log's address has no code: a frame the project does not have, answered as go-ethereum's.
    expect(Object.keys(log!)).to.not.include('contract');
    expect(library).to.deep.include({
      type: 'DELEGATECALL',
      contract: 'LinkedMath',
      function: 'capped',
      decodedOutput: [{ name: '', type: 'uint256', value: '5' }],
    });
    expect(transfer).to.deep.include({ contract: 'Token', function: 'transfer', signature: 'transfer(address,uint256)' });
    expect(transfer!.decodedOutput).to.deep.equal([{ name: '', type: 'bool', value: true }]);
    expect(transfer!.logs![0]!.event).to.equal('Transfer');
    expect(transfer!.logs![0]!.decodedArgs!.map((a) => `${a.name}=${a.value}`)).to.deep.equal([`from=${getAddress(vault)}`, `to=${DEPLOYER}`, 'value=5']);
    expect(viaViem.logs!.map((l) => l.event)).to.deep.equal(['Withdrawn']);

    const provider = new JsonRpcProvider(cli.url, undefined, { cacheTimeout: -1, staticNetwork: true });
    const viaEthers = (await provider.send('debug_traceTransaction', [hash, config])) as Frame;
    expect(viaEthers).to.deep.equal(viaViem);
    const parity = (await provider.send('trace_transaction', [hash])) as Frame[];
    expect(parity.map((entry) => `${entry.contract ?? '?'}.${entry.function ?? '?'}`)).to.deep.equal([
      'Vault.withdraw',
      '?.?',
      'LinkedMath.capped',
      'Token.transfer',
    ]);
    provider.destroy();
  });
});
