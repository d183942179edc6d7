/**
 * Solidity stack traces compared with Hardhat 2's own: the failing scenarios of
 * test/contracts/stacktraces/Scenarios.sol, compiled by solc-js, are sent to Hardhat's in-process
 * network (in a child process: Hardhat wants a project folder; given the compiler output with
 * hardhat_addCompilationResult) and to chain-sim (chain_loadArtifacts), from the same accounts in
 * the same order (so at the same addresses). Each failure's message and frames (contract,
 * function, file, line) must match Hardhat's, frame for frame, but for the differences listed
 * in DIFFERENCES (docs/contracts.md says why).
 */
import { expect } from 'chai';
import { Interface } from 'ethers';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createProvider } from '../../src/index.js';
import { REPO, tempDir } from '../helpers/artifacts.js';
import { runNode } from '../helpers/cli.js';

const require = createRequire(import.meta.url);
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

interface Frame {
  contract: string | undefined;
  function: string | undefined;
  file: string | undefined;
  line: number | undefined;
}
interface Outcome {
  message: string;
  frames: Frame[];
}
interface Tx {
  to?: string;
  data: string;
  value?: string;
  gas?: string;
  from?: string;
}

/** Where chain-sim's answer knowingly differs from Hardhat's, and what it answers instead. */
const DIFFERENCES: Record<string, (hardhat: Outcome, ours: Outcome) => void> = {
  // Hardhat gives no frame when the transaction itself runs out of gas; chain-sim shows where it was.
  loop: (hardhat, ours) => {
    expect(hardhat).to.deep.equal({ message: 'Transaction ran out of gas', frames: [] });
    expect(ours.message).to.equal('Transaction ran out of gas');
    expect(ours.frames.map((f) => `${f.contract}.${f.function}`)).to.deep.equal(['Scenarios.loop']);
  },
};

function compile() {
  const solc = require('solc') as { compile(input: string): string };
  const content = readFileSync(path.join(REPO, 'test/contracts/stacktraces/Scenarios.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'contracts/Scenarios.sol': { content } },
    settings: {
      optimizer: { enabled: false, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers'], '': ['ast'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts: Record<string, Record<string, { abi: never; evm: { bytecode: { object: string } } }>>;
    errors?: { severity: string; formattedMessage: string }[];
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return { input, output };
}

/** Runs `plan` on Hardhat 2's in-process network; answers each case's outcome by name. */
async function onHardhat(compiled: object, plan: { deploys: string[]; addresses: string[]; cases: [string, Tx][] }): Promise<Record<string, Outcome | 'ok'>> {
  const dir = tempDir('hardhat-stacktraces');
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'hardhat.config.cjs'), "module.exports = { solidity: '0.8.30' };\n");
  writeFileSync(path.join(dir, 'compiled.json'), JSON.stringify(compiled));
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
  writeFileSync(
    path.join(dir, 'run.cjs'),
    `const fs = require('fs');
const { input, output } = JSON.parse(fs.readFileSync('compiled.json', 'utf8'));
const plan = JSON.parse(fs.readFileSync('plan.json', 'utf8'));
(async () => {
  const p = require('hardhat').network.provider;
  await p.request({ method: 'hardhat_addCompilationResult', params: ['0.8.30', input, output] });
  for (const [i, data] of plan.deploys.entries()) {
    const hash = await p.request({ method: 'eth_sendTransaction', params: [{ from: '${FROM}', data, gas: '0x1000000' }] });
    const receipt = await p.request({ method: 'eth_getTransactionReceipt', params: [hash] });
    if (receipt.contractAddress.toLowerCase() !== plan.addresses[i].toLowerCase()) throw new Error('deployed at another address: ' + receipt.contractAddress);
  }
  const results = {};
  for (const [name, tx] of plan.cases) {
    try {
      await p.request({ method: 'eth_sendTransaction', params: [{ from: '${FROM}', gas: '0x1000000', ...tx }] });
      results[name] = 'ok';
    } catch (e) {
      results[name] = { message: e.message, frames: (e.stackTrace ?? []).map((s) => ({ type: s.type, contract: s.sourceReference?.contract, function: s.sourceReference?.function, file: s.sourceReference?.sourceName, line: s.sourceReference?.line })) };
    }
  }
  process.stdout.write(JSON.stringify(results));
})().catch((e) => { console.error(e); process.exit(1); });
`,
  );
  const run = await runNode(['run.cjs'], { cwd: dir, env: { HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' } });
  if (run.code !== 0) throw new Error(`hardhat failed:\n${run.stdout}\n${run.stderr}`);
  const raw = JSON.parse(run.stdout) as Record<string, { message: string; frames: (Frame & { type: number })[] } | 'ok'>;
  // Hardhat names a selector no function has by its entry's type (UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR, MISSING_FALLBACK_OR_RECEIVE_ERROR).
  return Object.fromEntries(
    Object.entries(raw).map(([name, outcome]) => [
      name,
      outcome === 'ok'
        ? 'ok'
        : {
            message: outcome.message,
            frames: outcome.frames.map(({ type, ...frame }) => ({
              ...frame,
              function: frame.function ?? (type === 11 || type === 13 ? '<unrecognized-selector>' : '<unknown>'),
            })),
          },
    ]),
  );
}

describe('Solidity stack traces, frame for frame against Hardhat 2', function () {
  this.timeout(240_000);

  it('gives Hardhat’s message and frames for every failing scenario of the corpus', async () => {
    const { input, output } = compile();
    const contracts = output.contracts['contracts/Scenarios.sol']!;
    // Hardhat's forms for every client: a failed send answers an error, as on Hardhat's network.
    const provider = createProvider({ quiet: true, artifacts: false, hardhatNode: true });
    await provider.request({ method: 'chain_loadArtifacts', params: [{ input, output }] });
    const deploys: string[] = [];
    const addresses: string[] = [];
    const deploy = async (data: string) => {
      const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: FROM, data, gas: '0x1000000' }] });
      const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string };
      deploys.push(data);
      addresses.push(receipt.contractAddress);
      return receipt.contractAddress;
    };
    const external = await deploy(`0x${contracts.External!.evm.bytecode.object}`);
    const linked = contracts.Scenarios!.evm.bytecode.object.replace(/__\$[0-9a-f]{34}\$__/g, external.slice(2).toLowerCase());
    const scenarios = await deploy(`0x${linked}`);
    const noReturn = await deploy(`0x${contracts.NoReturn!.evm.bytecode.object}`);
    const noFallback = await deploy(`0x${contracts.NoFallback!.evm.bytecode.object}`);
    const withReceive = await deploy(`0x${contracts.WithReceive!.evm.bytecode.object}`);
    const forwarder = await deploy(`0x${contracts.Forwarder!.evm.bytecode.object}${scenarios.slice(2).toLowerCase().padStart(64, '0')}`);
    const fallbackOnly = await deploy(`0x${contracts.PayableFallbackless!.evm.bytecode.object}`);
    const word = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');
    const beacon = await deploy(`0x${contracts.UpgradeableBeacon!.evm.bytecode.object}${word(scenarios)}`);
    const beaconProxy = await deploy(`0x${contracts.BeaconProxy!.evm.bytecode.object}${word(beacon)}`);
    const S = new Interface(contracts.Scenarios!.abi);
    const call = (fn: string, args: unknown[] = [], extra: Partial<Tx> = {}): Tx => ({ to: scenarios, data: S.encodeFunctionData(fn, args), ...extra });
    const cases: [string, Tx][] = [
      ['requireString', call('requireString')],
      ['requireNoReason', call('requireNoReason', [1])],
      ['revertEmpty', call('revertEmpty')],
      ['customError', call('customError')],
      ['overflow', call('overflow', [1])],
      ['divide', call('divide', [0])],
      ['outOfBounds', call('outOfBounds', [3])],
      ['assertion', call('assertion')],
      ['internalChain', call('internalChain', [9])],
      ['libraryRequire', call('libraryRequire')],
      ['externalLibrary', call('externalLibrary', [3])],
      ['guarded', call('guarded', [], { from: OTHER })],
      ['modified', call('modified', [0])],
      ['nested', call('nested')],
      ['callLeafString', call('callLeafString')],
      ['createRequire', call('create', [0])],
      ['createPanic', call('create', [5])],
      ['caught', call('caught')],
      ['notContract', call('notContract')],
      ['selectorNobodyHas', call('noReturnData', [noReturn])],
      ['invalidOpcode', call('invalidOpcode')],
      ['loop', call('loop', [], { gas: '0x30000' })],
      ['nonPayable', call('nonPayable', [], { value: '0x1' })],
      ['fallback', { to: scenarios, data: '0x12345678' }],
      ['unrecognized', { to: noFallback, data: '0x12345678' }],
      ['receive', { to: withReceive, data: '0x', value: '0x1' }],
      ['deployReverting', { data: `0x${contracts.Reverting!.evm.bytecode.object}${'0'.repeat(64)}` }],
      ['throughDelegatingProxy', call('throughProxy', [forwarder])],
      ['missingReturnData', call('missingReturnData', [noReturn])],
      ['callOutOfGas', call('callOutOfGas')],
      ['threeDeep', call('deep', [2])],
      ['fallbackNotPayable', { to: fallbackOnly, data: '0x12345678', value: '0x1' }],
      ['valueWithoutReceive', { to: fallbackOnly, data: '0x', value: '0x1' }],
      ['throughBeaconProxy', call('throughProxy', [beaconProxy])],
    ];
    const ours: Record<string, Outcome | 'ok'> = {};
    for (const [name, tx] of cases) {
      try {
        await provider.request({ method: 'eth_sendTransaction', params: [{ from: FROM, gas: '0x1000000', ...tx }] });
        ours[name] = 'ok';
      } catch (error) {
        const decoded = (error as { decoded?: { message: string; stack: Frame[] } }).decoded;
        ours[name] = {
          message: decoded?.message ?? String((error as Error).message),
          frames: [...(decoded?.stack ?? [])].reverse().map((f) => ({ contract: f.contract, function: f.function, file: f.file, line: f.line })),
        };
      }
    }
    await provider.disconnect();

    const hardhat = await onHardhat({ input, output }, { deploys, addresses, cases });
    const mismatches: string[] = [];
    for (const [name] of cases) {
      const theirs = hardhat[name]!;
      const mine = ours[name]!;
      expect(theirs, `${name} fails on Hardhat`).to.not.equal('ok');
      expect(mine, `${name} fails on chain-sim`).to.not.equal('ok');
      try {
        if (DIFFERENCES[name]) DIFFERENCES[name](theirs as Outcome, mine as Outcome);
        else expect(mine).to.deep.equal(theirs);
      } catch {
        mismatches.push(`${name}:\n  hardhat:   ${JSON.stringify(theirs)}\n  chain-sim: ${JSON.stringify(mine)}`);
      }
    }
    expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
    expect(cases.length).to.be.at.least(34);
  });
});
