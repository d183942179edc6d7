import { expect } from 'chai';
import { Interface, getAddress as toChecksum } from 'ethers';
import { type ChainSimProvider, createProvider } from '../../src/index.js';
import { DEPLOYER, type SolcRun, compileProject, deploy, solcJsonFolder, word } from '../helpers/artifacts.js';
import { requestError } from '../helpers/rpc.js';

const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** The project deployed on a provider: Token (1000 to the deployer), LinkedMath, Vault over the token, a Proxy to the token. */
export async function deployProject(provider: ChainSimProvider, run: SolcRun) {
  const abi = (name: string) => new Interface(Object.values(run.output.contracts).find((c) => c[name])![name]!.abi as never);
  const token = await deploy(provider, run, 'Token', word(1000));
  const library = await deploy(provider, run, 'LinkedMath');
  const vault = await deploy(provider, run, 'Vault', word(token), { LinkedMath: library });
  const proxy = await deploy(provider, run, 'Proxy', word(token));
  return { token, library, vault, proxy, Token: abi('Token'), Vault: abi('Vault') };
}

type Decoded = {
  message: string;
  reason: Record<string, unknown>;
  stack: { contract: string; function: string; file?: string; line?: number; address?: string; call?: string }[];
};

describe('artifacts: failures explained with the contracts', function () {
  this.timeout(120_000);
  let run: SolcRun;
  let provider: ChainSimProvider;
  let plain: ChainSimProvider;
  let project: Awaited<ReturnType<typeof deployProject>>;
  const printed: string[] = [];

  before(async () => {
    run = compileProject();
    provider = createProvider({ hardhatNode: true, artifacts: [solcJsonFolder()], logger: (line) => printed.push(line) });
    // Printed as the HTTP server's node prints them (an in-process provider prints none: tested below).
    (await provider.ready()).failureLog.enabled = true;
    project = await deployProject(provider, run);
    plain = createProvider({ quiet: true, artifacts: false });
    await deployProject(plain, run);
  });
  after(async () => {
    await provider.disconnect();
    await plain.disconnect();
  });
  beforeEach(() => printed.splice(0));

  const call = (to: string, data: string, from = DEPLOYER) => requestError(provider, 'eth_call', [{ from, to, data }, 'latest']);

  it('eth_call: a custom error by name and values in the message, the revert bytes still in data, the whole in decoded', async () => {
    const data = project.Token.encodeFunctionData('transfer', [OTHER, 5000]);
    const error = await call(project.token, data);
    const revert = project.Token.encodeErrorResult('InsufficientBalance', [1000, 5000]);
    expect(error).to.include({ code: 3, message: "execution reverted: custom error 'InsufficientBalance(1000, 5000)'", data: revert });
    const decoded = (error.error as { decoded: Decoded }).decoded;
    expect(decoded).to.deep.equal({
      message: "VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(1000, 5000)'",
      reason: {
        kind: 'customError',
        name: 'InsufficientBalance',
        signature: 'InsufficientBalance(uint256,uint256)',
        args: [
          { name: 'available', type: 'uint256', value: '1000' },
          { name: 'required', type: 'uint256', value: '5000' },
        ],
      },
      // Innermost first: the internal function that reverted (line 63), then the external one that called it (line 31).
      stack: [
        { contract: 'Token', function: '_transfer', file: 'contracts/Token.sol', line: 63, address: project.token },
        {
          contract: 'Token',
          function: 'transfer',
          file: 'contracts/Token.sol',
          line: 31,
          address: project.token,
          call: 'CALL',
          signature: 'transfer(address,uint256)',
        },
      ],
    });
    expect(printed).to.deep.equal([
      "Call failed: VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(1000, 5000)'",
      '    at Token._transfer (contracts/Token.sol:63)',
      '    at Token.transfer (contracts/Token.sol:31)',
    ]);
    // In process, the thrown error's stack starts with the Solidity frames, as Hardhat's does.
    expect(
      String((error.error as Error).stack)
        .split('\n')
        .slice(0, 3),
    ).to.deep.equal([
      "ProviderRpcError: execution reverted: custom error 'InsufficientBalance(1000, 5000)'",
      '    at Token._transfer (contracts/Token.sol:63)',
      '    at Token.transfer (contracts/Token.sol:31)',
    ]);
    // Without artifacts: go-ethereum's answer, as before.
    const bare = await requestError(plain, 'eth_call', [{ from: DEPLOYER, to: project.token, data }, 'latest']);
    expect(bare).to.include({ code: 3, message: 'execution reverted', data: revert });
    expect((bare.error as { decoded?: unknown }).decoded).to.equal(undefined);
  });

  it('through an external call, a linked library (DELEGATECALL) and a proxy: each frame named, innermost first', async () => {
    const nested = (await call(project.vault, project.Vault.encodeFunctionData('withdraw', [5]))).error as { message: string; decoded: Decoded };
    expect(nested.message).to.equal("execution reverted: custom error 'InsufficientBalance(0, 5)'");
    expect(nested.decoded.stack.map((f) => `${f.contract}.${f.function}:${f.line} ${f.call}`)).to.deep.equal([
      'Token._transfer:63 undefined',
      'Token.transfer:31 CALL',
      'Vault.withdraw:21 CALL',
    ]);
    expect(nested.decoded.stack[0]!.address).to.equal(project.token);

    const library = (await call(project.vault, project.Vault.encodeFunctionData('withdraw', [2000]))).error as { message: string; decoded: Decoded };
    expect(library.message).to.equal("execution reverted: custom error 'TooLarge(2000, 1000)'");
    expect(library.decoded.stack.map((f) => `${f.contract}.${f.function}:${f.line} ${f.call}`)).to.deep.equal([
      'LinkedMath.capped:17 DELEGATECALL',
      'Vault.withdraw:21 CALL',
    ]);
    // The library ran in the vault's context: the frame's address is the vault's.
    expect(library.decoded.stack[0]!.address).to.equal(project.vault);

    const proxied = (await call(project.proxy, project.Token.encodeFunctionData('transfer', [OTHER, 7]))).error as { message: string; decoded: Decoded };
    expect(proxied.message).to.equal("execution reverted: custom error 'InsufficientBalance(0, 7)'");
    expect(proxied.decoded.stack.map((f) => `${f.contract}.${f.function} ${f.call}`)).to.deep.equal([
      'Token._transfer undefined',
      'Token.transfer DELEGATECALL',
      'Proxy.<fallback> CALL',
    ]);
    expect(printed.slice(-4)).to.deep.equal([
      "Call failed: VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(0, 7)'",
      '    at Token._transfer (contracts/Token.sol:63)',
      '    at Token.transfer (contracts/Token.sol:31)',
      '    at Proxy.<fallback> (contracts/Vault.sol:62)',
    ]);
  });

  it('a failed send (Hardhat mode): Hardhat’s message with the custom error, its data object as before, decoded beside it', async () => {
    const data = project.Token.encodeFunctionData('transfer', [OTHER, 5000]);
    const error = await requestError(provider, 'eth_sendTransaction', [{ from: DEPLOYER, to: project.token, data, gas: '0x100000' }]);
    const message = "Error: VM Exception while processing transaction: reverted with custom error 'InsufficientBalance(1000, 5000)'";
    expect(error).to.include({ code: -32603, message });
    const body = error.data as { message: string; txHash: string; data: string };
    expect(body).to.include({ message, data: project.Token.encodeErrorResult('InsufficientBalance', [1000, 5000]) });
    expect(body.txHash).to.match(/^0x[0-9a-f]{64}$/);
    const decoded = (error.error as { decoded: Decoded }).decoded;
    expect(decoded.stack.map((f) => `${f.contract}.${f.function}`)).to.deep.equal(['Token._transfer', 'Token.transfer']);
    expect(printed[0]).to.equal(`Transaction ${body.txHash} failed: ${message.slice('Error: '.length)}`);
  });

  it('Error(string), panics and an empty revert: reasons decoded, go-ethereum’s messages kept for code 3', async () => {
    const reasonOf = async (data: string) => (await call(project.token, data)).error as { message: string; decoded: Decoded };
    const text = await reasonOf(project.Token.encodeFunctionData('fail', ['nope']));
    expect(text.message).to.equal('execution reverted: nope');
    expect(text.decoded.message).to.equal("VM Exception while processing transaction: reverted with reason string 'nope'");
    expect(text.decoded.reason).to.deep.equal({ kind: 'errorString', text: 'nope' });

    const panic = await reasonOf(project.Token.encodeFunctionData('overflow', [1]));
    expect(panic.message).to.equal('execution reverted: arithmetic underflow or overflow');
    expect(panic.decoded.message).to.equal(
      'VM Exception while processing transaction: reverted with panic code 0x11 (Arithmetic operation overflowed outside of an unchecked block)',
    );
    expect(panic.decoded.reason).to.deep.equal({ kind: 'panic', code: '0x11', description: 'Arithmetic operation overflowed outside of an unchecked block' });

    const division = await reasonOf(project.Token.encodeFunctionData('divide', [1, 0]));
    expect(division.decoded.reason).to.deep.equal({ kind: 'panic', code: '0x12', description: 'Division or modulo division by zero' });

    const empty = await reasonOf(project.Token.encodeFunctionData('failEmpty'));
    expect(empty.message).to.equal('execution reverted');
    expect(empty.decoded.message).to.equal('Transaction reverted without a reason string');
    expect(empty.decoded.reason).to.deep.equal({ kind: 'empty' });
  });

  it('an error declared in an interface, raised by the contract that inherits it', async () => {
    const error = await call(project.token, project.Token.encodeFunctionData('mint', [OTHER, 1]), OTHER);
    expect(error.message).to.equal(`execution reverted: custom error 'Unauthorized("${OTHER}")'`);
    expect((error.error as { decoded: Decoded }).decoded.reason).to.deep.include({ name: 'Unauthorized', signature: 'Unauthorized(address)' });
  });

  it('eth_estimateGas: the same explanation', async () => {
    const error = await requestError(provider, 'eth_estimateGas', [
      { from: DEPLOYER, to: project.vault, data: project.Vault.encodeFunctionData('withdraw', [5]) },
    ]);
    expect(error).to.include({ code: 3, message: "execution reverted: custom error 'InsufficientBalance(0, 5)'" });
    expect((error.error as { decoded: Decoded }).decoded.stack.map((f) => `${f.contract}.${f.function}`)).to.deep.equal([
      'Token._transfer',
      'Token.transfer',
      'Vault.withdraw',
    ]);
    expect(printed[0]).to.match(/^Gas estimate failed: /);
  });

  it('in process, failures are thrown, not printed (as on Hardhat’s in-process network)', async () => {
    const lines: string[] = [];
    const quietNode = createProvider({ hardhatNode: true, artifacts: [solcJsonFolder()], logger: (line) => lines.push(line) });
    try {
      const { token, Token } = await deployProject(quietNode, run);
      lines.splice(0);
      const error = await requestError(quietNode, 'eth_call', [
        { from: DEPLOYER, to: token, data: Token.encodeFunctionData('transfer', [OTHER, 5000]) },
        'latest',
      ]);
      expect(error.message).to.equal("execution reverted: custom error 'InsufficientBalance(1000, 5000)'");
      expect(lines).to.deep.equal([]);
    } finally {
      await quietNode.disconnect();
    }
  });

  it('console.log lines name the contract that printed them: in a call, in a constructor', async () => {
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: DEPLOYER, to: project.token, data: project.Token.encodeFunctionData('transfer', [project.vault, 10]) }],
    });
    printed.splice(0);
    await provider.request({
      method: 'eth_call',
      params: [{ from: DEPLOYER, to: project.vault, data: project.Vault.encodeFunctionData('withdraw', [5]) }, 'latest'],
    });
    expect(printed).to.deep.equal(['[Vault] withdraw 5']);
    printed.splice(0);
    await deploy(provider, run, 'Token', word(42));
    expect(printed).to.deep.equal(['[Token] minting 42']);
    // Without artifacts: the line alone, as before.
    const lines: string[] = [];
    const bare = createProvider({ artifacts: false, logger: (line) => lines.push(line) });
    await deploy(bare, run, 'Token', word(42));
    await bare.disconnect();
    expect(lines).to.deep.equal(['minting 42']);
  });

  it('--print-traces names contracts and functions, decodes arguments, results, events and errors (as forge -vvvv)', async () => {
    const lines: string[] = [];
    const traced = createProvider({ hardhatNode: true, artifacts: [solcJsonFolder()], printTraces: true, logger: (line) => lines.push(line) });
    try {
      const { token, vault, Token, Vault } = await deployProject(traced, run);
      await traced.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, to: token, data: Token.encodeFunctionData('transfer', [vault, 10]) }] });
      // Traces are printed after each block, in the background.
      const traceOf = async (hash: unknown) => {
        for (let i = 0; i < 200 && !lines.some((line) => line.startsWith(`Traces for ${hash}:`)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
        return lines.find((line) => line.startsWith(`Traces for ${hash}:`))!;
      };
      const withdraw = Vault.encodeFunctionData('withdraw', [5]);
      const hash = await traced.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, to: vault, data: withdraw }] });
      const trace = (await traceOf(hash)).replace(/\[\d+\]/g, '[gas]');
      expect(trace).to.equal(
        [
          `Traces for ${hash}:`,
          '  [gas] Vault::withdraw(5)',
          '    ├─ [gas] console::log("withdraw 5") [staticcall]',
          '    │  ← [Stop]',
          '    ├─ [gas] LinkedMath::capped(5, 1000) [delegatecall]',
          '    │  ← [Return] 5',
          `    ├─ [gas] Token::transfer(${DEPLOYER}, 5)`,
          // forge labels the addresses of contracts in the trace.
          `    │  └─ emit Transfer(from: Vault: [${toChecksum(vault)}], to: ${DEPLOYER}, value: 5)`,
          '    │  ← [Return] true',
          `    └─ emit Withdrawn(to: ${DEPLOYER}, amount: 5)`,
          '    ← [Stop]',
        ].join('\n'),
      );
      const error = await requestError(traced, 'eth_sendTransaction', [
        { from: DEPLOYER, to: vault, data: Vault.encodeFunctionData('withdraw', [50]), gas: '0x100000' },
      ]);
      const failed = (await traceOf((error.data as { txHash: string }).txHash)).split('\n');
      expect(failed.slice(-2)).to.deep.equal(['       ← [Revert] InsufficientBalance(5, 50)', '    ← [Revert] InsufficientBalance(5, 50)']);
    } finally {
      await traced.disconnect();
    }
  });

  it('a contract the artifacts do not have: its frame unrecognised, its error undecoded', async () => {
    await provider.request({ method: 'chain_setCode', params: ['0x00000000000000000000000000000000000000cc', '0x63deadbeef60e01b60005260046000fd'] });
    const error = await call('0x00000000000000000000000000000000000000cc', '0x');
    expect(error.message).to.equal('execution reverted');
    const decoded = (error.error as { decoded: Decoded }).decoded;
    expect(decoded.message).to.equal('VM Exception while processing transaction: reverted with an unrecognized custom error (return data: 0xdeadbeef)');
    expect(decoded.stack).to.deep.equal([
      { contract: '<UnrecognizedContract>', function: '<unknown>', address: '0x00000000000000000000000000000000000000cc', call: 'CALL' },
    ]);
  });
});

describe('artifacts: a recompile', function () {
  this.timeout(180_000);

  it('is read again by chain_loadArtifacts: the same deployed code, the new sources’ lines', async () => {
    const { writeFileSync } = await import('node:fs');
    const path = await import('node:path');
    const folder = solcJsonFolder();
    const provider = createProvider({ quiet: true, artifacts: [folder] });
    try {
      const run = compileProject();
      const { token, Token } = await deployProject(provider, run);
      const data = Token.encodeFunctionData('transfer', [OTHER, 5000]);
      const linesOf = async () => {
        const error = await requestError(provider, 'eth_call', [{ from: DEPLOYER, to: token, data }, 'latest']);
        return (error.error as { decoded: Decoded }).decoded.stack.map((f) => `${f.function}:${f.line}`);
      };
      expect(await linesOf()).to.deep.equal(['_transfer:63', 'transfer:31']);
      // Two lines added at the top of every file: other metadata, the same code, every line two further down.
      const edited = compileProject('contracts/', false, '', '// edited\n// twice\n');
      writeFileSync(path.join(folder, 'compiled.json'), JSON.stringify({ input: edited.input, output: edited.output }));
      await provider.request({ method: 'chain_loadArtifacts', params: [folder] });
      expect(await linesOf()).to.deep.equal(['_transfer:65', 'transfer:33']);
    } finally {
      await provider.disconnect();
    }
  });
});

describe('artifacts: the same answers from a Foundry project (forge build)', function () {
  this.timeout(180_000);

  it('names the frames of a failure with their lines, from out/ and its build-info', async function () {
    const { foundryProject } = await import('../helpers/artifacts.js');
    const { readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const project = await foundryProject();
    if (!project) return this.skip();
    const artifact = JSON.parse(readFileSync(path.join(project, 'out', 'Token.sol', 'Token.json'), 'utf8')) as { abi: never; bytecode: { object: string } };
    const printed: string[] = [];
    const provider = createProvider({ artifacts: [project], logger: (line) => printed.push(line) });
    try {
      const Token = new Interface(artifact.abi);
      const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, data: `${artifact.bytecode.object}${word(1000)}` }] });
      const { contractAddress } = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string };
      const error = await requestError(provider, 'eth_call', [
        { from: DEPLOYER, to: contractAddress, data: Token.encodeFunctionData('transfer', [OTHER, 5000]) },
        'latest',
      ]);
      expect(error.message).to.equal("execution reverted: custom error 'InsufficientBalance(1000, 5000)'");
      const decoded = (error.error as { decoded: Decoded }).decoded;
      expect(decoded.stack.map((f) => `${f.contract}.${f.function} (${f.file}:${f.line})`)).to.deep.equal([
        'Token._transfer (src/Token.sol:63)',
        'Token.transfer (src/Token.sol:31)',
      ]);
      expect(printed).to.include('[Token] minting 1000');
    } finally {
      await provider.disconnect();
    }
  });
});
