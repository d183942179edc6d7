/**
 * Named traces (docs/tracing.md#named-traces): the call tracer, the flat call tracer and
 * trace_* name the frames of the project's contracts with extra members, and leave every
 * go-ethereum and Parity member as it is; events a failed frame emitted are shown as forge
 * shows them; a beacon proxy (EIP-1967's beacon slot) is followed to its implementation.
 * The contracts are compiled here by solc-js.
 */
import { expect } from 'chai';
import { Interface, getAddress } from 'ethers';
import { type ChainSimProvider, createProvider } from '../../src/index.js';
import { type ChainReader, identifyAddress, labelOf } from '../../src/contracts/identify.js';
import { ContractRegistry } from '../../src/contracts/registry.js';
import { compileSource, DEPLOYER, type SolcRun, deploy, word } from '../helpers/artifacts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Inner {
  event Touched(uint256 value, string note);
  error Nope(uint256 value);

  function touch(uint256 v) external returns (uint256) {
    emit Touched(v, "inner");
    if (v > 10) revert Nope(v);
    return v + 1;
  }
}

contract Outer {
  event Before(address indexed who, uint256 v);
  event Caught(bytes reason);
  Inner public immutable inner;

  constructor(Inner inner_) {
    inner = inner_;
  }

  function go(uint256 v) external returns (uint256) {
    emit Before(msg.sender, v);
    return inner.touch(v);
  }

  function tryGo(uint256 v) external returns (bool) {
    emit Before(msg.sender, v);
    try inner.touch(v) returns (uint256) {
      return true;
    } catch (bytes memory reason) {
      emit Caught(reason);
      return false;
    }
  }
}

interface IBeacon {
  function implementation() external view returns (address);
}

/// As OpenZeppelin's UpgradeableBeacon: holds the implementation its proxies delegate to.
contract UpgradeableBeacon is IBeacon {
  address private current;

  constructor(address implementation_) {
    current = implementation_;
  }

  function implementation() external view returns (address) {
    return current;
  }
}

/// As OpenZeppelin's BeaconProxy: the beacon in EIP-1967's beacon slot, each call delegated to its implementation().
contract BeaconProxy {
  bytes32 private constant BEACON_SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;

  constructor(address beacon) {
    assembly {
      sstore(BEACON_SLOT, beacon)
    }
  }

  fallback() external payable {
    address beacon;
    assembly {
      beacon := sload(BEACON_SLOT)
    }
    address implementation = IBeacon(beacon).implementation();
    assembly {
      calldatacopy(0, 0, calldatasize())
      let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
      returndatacopy(0, 0, returndatasize())
      switch ok
      case 0 { revert(0, returndatasize()) }
      default { return(0, returndatasize()) }
    }
  }
}
`;

const compile = (): SolcRun => compileSource('contracts/Named.sol', SOURCE, 'cancun');

/** The members named traces add; without them an answer must be go-ethereum's (Parity's) exactly. */
const NAMED_MEMBERS = ['contract', 'function', 'signature', 'decodedInput', 'decodedOutput', 'decodedError', 'revertedLogs', 'event', 'decodedArgs'];

function withoutNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNames);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !NAMED_MEMBERS.includes(key))
      .map(([key, inner]) => [key, withoutNames(inner)]),
  );
}

function namedMembersIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namedMembersIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [...(NAMED_MEMBERS.includes(key) ? [key] : []), ...namedMembersIn(inner)]);
}

type Frame = Record<string, unknown> & { calls?: Frame[]; logs?: Record<string, unknown>[]; revertedLogs?: Record<string, unknown>[] };

describe('named traces: callTracer, flatCallTracer and trace_* with the project’s contracts', function () {
  this.timeout(120_000);
  let run: SolcRun;
  let named: ChainSimProvider;
  let plain: ChainSimProvider;
  const printed: string[] = [];
  let addresses: { inner: string; outer: string; beacon: string; proxy: string };
  const abi = (name: string) => new Interface(run.output.contracts['contracts/Named.sol']![name]!.abi as never);

  const deployAll = async (provider: ChainSimProvider) => {
    const inner = await deploy(provider, run, 'Inner');
    const outer = await deploy(provider, run, 'Outer', word(inner));
    const beacon = await deploy(provider, run, 'UpgradeableBeacon', word(inner));
    const proxy = await deploy(provider, run, 'BeaconProxy', word(beacon));
    return { inner, outer, beacon, proxy };
  };

  before(async () => {
    run = compile();
    named = createProvider({ quiet: true, artifacts: false, printTraces: true, logger: (line) => printed.push(line) });
    await named.request({ method: 'chain_loadArtifacts', params: [{ input: run.input, output: run.output }] });
    plain = createProvider({ quiet: true, artifacts: false });
    addresses = await deployAll(named);
    expect(await deployAll(plain)).to.deep.equal(addresses);
  });
  after(async () => {
    await named.disconnect();
    await plain.disconnect();
  });

  const traceCall = (provider: ChainSimProvider, to: string, data: string, config: object) =>
    provider.request({ method: 'debug_traceCall', params: [{ from: DEPLOYER, to, data, gas: '0x100000' }, 'latest', config] });

  it('callTracer: contract, function, decoded arguments, results and events; go-ethereum’s members unchanged', async () => {
    const data = abi('Outer').encodeFunctionData('go', [7]);
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    const trace = (await traceCall(named, addresses.outer, data, config)) as Frame;
    const bare = await traceCall(plain, addresses.outer, data, config);
    expect(namedMembersIn(bare)).to.deep.equal([]);
    expect(withoutNames(trace)).to.deep.equal(bare);
    expect(trace).to.deep.include({
      contract: 'Outer',
      function: 'go',
      signature: 'go(uint256)',
      decodedInput: [{ name: 'v', type: 'uint256', value: '7' }],
      decodedOutput: [{ name: '', type: 'uint256', value: '8' }],
    });
    expect(trace.logs![0]).to.deep.include({
      event: 'Before',
      signature: 'Before(address,uint256)',
      decodedArgs: [
        { name: 'who', type: 'address', value: DEPLOYER, indexed: true },
        { name: 'v', type: 'uint256', value: '7', indexed: false },
      ],
    });
    const inner = trace.calls![0]!;
    expect(inner).to.deep.include({ contract: 'Inner', function: 'touch', decodedOutput: [{ name: '', type: 'uint256', value: '8' }] });
    expect(inner.logs![0]).to.deep.include({
      event: 'Touched',
      decodedArgs: [
        { name: 'value', type: 'uint256', value: '7', indexed: false },
        { name: 'note', type: 'string', value: 'inner', indexed: false },
      ],
    });
  });

  it('a reverted frame: its error decoded, and the events it emitted before the chain discarded them in revertedLogs', async () => {
    const data = abi('Outer').encodeFunctionData('tryGo', [50]);
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    const trace = (await traceCall(named, addresses.outer, data, config)) as Frame;
    const bare = (await traceCall(plain, addresses.outer, data, config)) as Frame;
    expect(withoutNames(trace)).to.deep.equal(bare);
    // go-ethereum's view: the reverted call has no logs.
    expect(bare.calls![0]!.logs).to.equal(undefined);
    const inner = trace.calls![0]!;
    expect(inner).to.deep.include({
      contract: 'Inner',
      function: 'touch',
      error: 'execution reverted',
      decodedError: { kind: 'customError', name: 'Nope', signature: 'Nope(uint256)', args: [{ name: 'value', type: 'uint256', value: '50' }] },
    });
    expect(inner.logs).to.equal(undefined);
    expect(inner.revertedLogs).to.have.length(1);
    expect(inner.revertedLogs![0]).to.deep.include({ address: addresses.inner.toLowerCase(), event: 'Touched' });
    expect(trace).to.deep.include({ decodedOutput: [{ name: '', type: 'bool', value: false }] });
    expect(trace.logs!.map((log) => log.event)).to.deep.equal(['Before', 'Caught']);
    // Without withLog, no logs of either kind.
    const quiet = (await traceCall(named, addresses.outer, data, { tracer: 'callTracer' })) as Frame;
    expect(quiet.calls![0]!.revertedLogs).to.equal(undefined);
  });

  it('--print-traces shows a reverted call’s events, as forge -vvvv does', async () => {
    const data = abi('Outer').encodeFunctionData('go', [50]);
    const hash = (await named.request({ method: 'chain_sendTransaction', params: [{ from: DEPLOYER, to: addresses.outer, data, gas: '0x100000' }] })) as string;
    let trace: string | undefined;
    for (let i = 0; i < 300 && !trace; i++) {
      trace = printed.find((line) => line.startsWith(`Traces for ${hash}:`));
      if (!trace) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(trace?.replace(/\[\d+\]/g, '[gas]')).to.equal(
      [
        `Traces for ${hash}:`,
        '  [gas] Outer::go(50)',
        `    ├─ emit Before(who: ${DEPLOYER}, v: 50)`,
        '    └─ [gas] Inner::touch(50)',
        '       └─ emit Touched(value: 50, note: "inner")',
        '       ← [Revert] Nope(50)',
        '    ← [Revert] Nope(50)',
      ].join('\n'),
    );
  });

  it('flatCallTracer and trace_transaction: each entry named, Parity’s members unchanged', async () => {
    const data = abi('Outer').encodeFunctionData('go', [3]);
    const send = async (provider: ChainSimProvider) =>
      (await provider.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, to: addresses.outer, data, gas: '0x100000' }] })) as string;
    const flat = (await traceCall(named, addresses.outer, data, { tracer: 'flatCallTracer' })) as Frame[];
    const bareFlat = await traceCall(plain, addresses.outer, data, { tracer: 'flatCallTracer' });
    expect(namedMembersIn(bareFlat)).to.deep.equal([]);
    expect(withoutNames(flat)).to.deep.equal(bareFlat);
    expect(flat.map((entry) => `${entry.contract}.${entry.function}`)).to.deep.equal(['Outer.go', 'Inner.touch']);
    const hash = await send(named);
    const parity = (await named.request({ method: 'trace_transaction', params: [hash] })) as Frame[];
    expect(parity.map((entry) => entry.signature)).to.deep.equal(['go(uint256)', 'touch(uint256)']);
    expect(parity[1]).to.deep.include({
      decodedInput: [{ name: 'v', type: 'uint256', value: '3' }],
      decodedOutput: [{ name: '', type: 'uint256', value: '4' }],
    });
    const replay = (await named.request({ method: 'trace_replayTransaction', params: [hash, ['trace']] })) as { trace: Frame[] };
    expect(replay.trace.map((entry) => entry.function)).to.deep.equal(['go', 'touch']);
    const block = (await named.request({ method: 'trace_block', params: ['latest'] })) as Frame[];
    expect(block.map((entry) => entry.function)).to.deep.equal(['go', 'touch']);
    const blockTrace = (await named.request({ method: 'debug_traceBlockByNumber', params: ['latest', { tracer: 'callTracer' }] })) as { result: Frame }[];
    expect(blockTrace[0]!.result).to.deep.include({ contract: 'Outer', function: 'go' });
    const mux = (await named.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'muxTracer', tracerConfig: { callTracer: {} } }] })) as {
      callTracer: Frame;
    };
    expect(mux.callTracer.calls![0]).to.deep.include({ contract: 'Inner', function: 'touch' });
    const bareHash = await send(plain);
    const bare = (await plain.request({ method: 'trace_transaction', params: [bareHash] })) as Frame[];
    const strip = (entries: unknown) => (withoutNames(entries) as Frame[]).map(({ blockHash: _h, blockNumber: _n, transactionHash: _t, ...rest }) => rest);
    expect(strip(parity)).to.deep.equal(strip(bare));
  });

  it('a constructor’s frame: the contract created and its arguments', async () => {
    const bytecode = run.output.contracts['contracts/Named.sol']!.Outer!.evm.bytecode.object;
    const trace = (await named.request({
      method: 'debug_traceCall',
      params: [{ from: DEPLOYER, data: `0x${bytecode}${word(addresses.inner)}`, gas: '0x1000000' }, 'latest', { tracer: 'callTracer' }],
    })) as Frame;
    expect(trace).to.deep.include({
      type: 'CREATE',
      contract: 'Outer',
      function: 'constructor',
      signature: 'constructor(address)',
      decodedInput: [{ name: 'inner_', type: 'address', value: getAddress(addresses.inner) }],
    });
  });

  it('EIP-1967 beacon proxy: its beacon read from the beacon slot, the implementation asked of the beacon and named', async () => {
    const registry = new ContractRegistry([]);
    registry.loadOutput({ input: run.input, output: run.output });
    const hex = (value: unknown) => Buffer.from((value as string).slice(2), 'hex');
    const reader: ChainReader = {
      code: async (address) => hex(await named.request({ method: 'eth_getCode', params: [address, 'latest'] })),
      storage: async (address, slot) =>
        hex(await named.request({ method: 'eth_getStorageAt', params: [address, `0x${Buffer.from(slot).toString('hex')}`, 'latest'] })),
      call: async (to, data) => hex(await named.request({ method: 'eth_call', params: [{ to, data: `0x${Buffer.from(data).toString('hex')}` }, 'latest'] })),
    };
    const identified = (await identifyAddress(registry, reader, addresses.proxy))!;
    expect(identified.contract?.name).to.equal('BeaconProxy');
    expect(identified.proxy).to.deep.include({ standard: 'EIP-1967 beacon', implementation: addresses.inner.toLowerCase() });
    expect(identified.proxy!.target?.name).to.equal('Inner');
    expect(identified.proxy!.beacon).to.deep.include({ address: addresses.beacon.toLowerCase() });
    expect(identified.proxy!.beacon!.contract?.name).to.equal('UpgradeableBeacon');
    expect(labelOf(identified)).to.equal('BeaconProxy (EIP-1967 beacon proxy to Inner)');
    // Without a way to call, the beacon is not followed (and the proxy is not mistaken for another standard).
    expect((await identifyAddress(registry, { code: reader.code, storage: reader.storage }, addresses.proxy))!.proxy).to.equal(undefined);

    // In a trace, each frame by the code it ran: the proxy's fallback, the beacon's implementation(), Inner's touch.
    const trace = (await traceCall(named, addresses.proxy, abi('Inner').encodeFunctionData('touch', [2]), { tracer: 'callTracer' })) as Frame;
    expect([trace, ...trace.calls!].map((frame) => `${frame.type} ${frame.contract}.${frame.function}`)).to.deep.equal([
      'CALL BeaconProxy.<fallback>',
      'STATICCALL UpgradeableBeacon.implementation',
      'DELEGATECALL Inner.touch',
    ]);
    // The fallback's input and result read as the function it forwarded (forge: `BeaconProxy::fallback(2)`, `← [Return] 3`).
    expect(trace).to.deep.include({
      signature: 'touch(uint256)',
      decodedInput: [{ name: 'v', type: 'uint256', value: '2' }],
      decodedOutput: [{ name: '', type: 'uint256', value: '3' }],
    });
  });

  it('--print-traces through a beacon proxy, as forge -vvvv prints it', async () => {
    const data = abi('Inner').encodeFunctionData('touch', [2]);
    const hash = (await named.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, to: addresses.proxy, data, gas: '0x100000' }] })) as string;
    let trace: string | undefined;
    for (let i = 0; i < 300 && !trace; i++) {
      trace = printed.find((line) => line.startsWith(`Traces for ${hash}:`));
      if (!trace) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(trace?.replace(/\[\d+\]/g, '[gas]')).to.equal(
      [
        `Traces for ${hash}:`,
        '  [gas] BeaconProxy::fallback(2)',
        '    ├─ [gas] UpgradeableBeacon::implementation() [staticcall]',
        `    │  ← [Return] Inner: [${getAddress(addresses.inner)}]`,
        '    └─ [gas] Inner::touch(2) [delegatecall]',
        '       └─ emit Touched(value: 2, note: "inner")',
        '       ← [Return] 3',
        '    ← [Return] 3',
      ].join('\n'),
    );
  });
});
