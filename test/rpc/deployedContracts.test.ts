/**
 * chain_deployedContracts (docs/explorer.md): every contract the chain's blocks created, top
 * level and by contracts (CREATE, CREATE2), newest first and a page at a time, without those a
 * revert undid; a snapshot revert drops what its blocks created. And chain_identifyContract
 * follows an EIP-1967 beacon proxy to the implementation its beacon names. The contracts are
 * compiled here by solc-js and run on the real VM, before Cancun too (where the EVM does not
 * track created addresses itself).
 */
import { expect } from 'chai';
import { getCreate2Address, getCreateAddress, keccak256, Interface } from 'ethers';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChainSimProvider, createProvider } from '../../src/index.js';
import { compileSource, DEPLOYER, type SolcRun, deploy, word } from '../helpers/artifacts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Child {
  uint256 public tag;
  constructor(uint256 tag_) { tag = tag_; }
}

contract Refusing {
  constructor() { revert("refused"); }
}

contract ChildFactory {
  event Made(address plain, address salted);

  /// Two children: one by CREATE, one by CREATE2.
  function makeTwo(bytes32 salt) external returns (address plain, address salted) {
    plain = address(new Child(1));
    salted = address(new Child{salt: salt}(2));
    emit Made(plain, salted);
  }

  /// Creates a child, then reverts: the child is undone with the call.
  function makeThenRevert() external {
    new Child(3);
    revert("undone");
  }

  /// One child kept; one made in an inner call that reverts; one whose own constructor reverts.
  function makeSome() external returns (address kept) {
    kept = address(new Child(4));
    try this.makeThenRevert() {} catch {}
    try new Refusing() {} catch {}
  }
}

interface IBeacon {
  function implementation() external view returns (address);
}

contract UpgradeableBeacon is IBeacon {
  address public implementation;
  constructor(address implementation_) { implementation = implementation_; }
}

contract BeaconProxy {
  bytes32 private constant BEACON_SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;
  constructor(address beacon) {
    assembly { sstore(BEACON_SLOT, beacon) }
  }
  fallback() external payable {
    address beacon;
    assembly { beacon := sload(BEACON_SLOT) }
    address target = IBeacon(beacon).implementation();
    assembly {
      calldatacopy(0, 0, calldatasize())
      let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
      returndatacopy(0, 0, returndatasize())
      switch ok
      case 0 { revert(0, returndatasize()) }
      default { return(0, returndatasize()) }
    }
  }
}
`;

/** Compiled for Shanghai: runs on a Shanghai chain (before EIP-6780) and on later ones. */
const compile = (): SolcRun => compileSource('contracts/Deployments.sol', SOURCE, 'shanghai');

interface Listed {
  address: string;
  creator: string;
  transactionHash: string;
  transactionIndex: string;
  blockNumber: string;
  blockHash: string;
}
interface Page {
  contracts: Listed[];
  total: string;
  next: string | null;
}

const SALT = `0x${'ab'.repeat(32)}`;

describe('chain_deployedContracts: contracts created by the chain’s blocks', function () {
  this.timeout(120_000);
  let run: SolcRun;
  const factoryAbi = () => new Interface(run.output.contracts['contracts/Deployments.sol']!.ChildFactory!.abi as never);

  before(() => {
    run = compile();
  });

  const listed = async (provider: ChainSimProvider, ...params: unknown[]) =>
    (await provider.request({ method: 'chain_deployedContracts', params })) as unknown as Page;

  const send = async (provider: ChainSimProvider, to: string, data: string) => {
    const hash = (await provider.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, to, data, gas: '0x1000000' }] })) as string;
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string; blockNumber: string };
    return { hash, ...receipt };
  };

  for (const hardfork of ['shanghai', 'prague'] as const) {
    it(`${hardfork}: a deploy, a factory's two children (CREATE and CREATE2), and nothing a revert undid`, async () => {
      const provider = createProvider({ quiet: true, artifacts: false, hardfork });
      const empty = await listed(provider);
      expect(empty).to.deep.equal({ contracts: [], total: '0x0', next: null });

      const factory = await deploy(provider, run, 'ChildFactory');
      const two = await send(provider, factory, factoryAbi().encodeFunctionData('makeTwo', [SALT]));
      expect(two.status).to.equal('0x1');
      const childCode = `0x${run.output.contracts['contracts/Deployments.sol']!.Child!.evm.bytecode.object}`;
      const plain = getCreateAddress({ from: factory, nonce: 1 });
      const salted = getCreate2Address(factory, SALT, keccak256(childCode + word(2)));

      // makeSome: the child of the inner call that reverted, and the refusing constructor's, are not listed.
      const some = await send(provider, factory, factoryAbi().encodeFunctionData('makeSome'));
      expect(some.status).to.equal('0x1');
      const kept = getCreateAddress({ from: factory, nonce: 3 });
      // A transaction that reverts as a whole lists nothing, nor does a deploy whose constructor reverts.
      expect((await send(provider, factory, factoryAbi().encodeFunctionData('makeThenRevert'))).status).to.equal('0x0');
      const refusing = run.output.contracts['contracts/Deployments.sol']!.Refusing!.evm.bytecode.object;
      const failedDeploy = (await provider.request({
        method: 'eth_sendTransaction',
        params: [{ from: DEPLOYER, data: `0x${refusing}`, gas: '0x1000000' }],
      })) as string;
      expect(((await provider.request({ method: 'eth_getTransactionReceipt', params: [failedDeploy] })) as { status: string }).status).to.equal('0x0');

      const page = await listed(provider);
      expect(page.total).to.equal('0x4');
      expect(page.next).to.equal(null);
      const lower = (a: string) => a.toLowerCase();
      expect(page.contracts.map((c) => [c.address, c.creator])).to.deep.equal([
        [lower(kept), lower(factory)],
        [lower(salted), lower(factory)],
        [lower(plain), lower(factory)],
        [lower(factory), lower(DEPLOYER)],
      ]);
      expect(page.contracts[0]!.transactionHash).to.equal(some.hash);
      expect(page.contracts[0]!.blockNumber).to.equal(some.blockNumber);
      expect(page.contracts[1]!.transactionHash).to.equal(two.hash);
      expect(page.contracts[2]!.transactionHash).to.equal(two.hash);
      const block = (await provider.request({ method: 'eth_getBlockByNumber', params: [two.blockNumber, false] })) as { hash: string };
      expect(page.contracts[1]).to.deep.include({ blockNumber: two.blockNumber, blockHash: block.hash, transactionIndex: '0x0' });
      // Every listed address holds code: they are the contracts, not guesses.
      for (const c of page.contracts) expect(await provider.request({ method: 'eth_getCode', params: [c.address, 'latest'] })).to.not.equal('0x');
    });
  }

  it('pages newest first with limit and cursor, and a snapshot revert drops what its blocks created', async () => {
    const provider = createProvider({ quiet: true, artifacts: false });
    const factory = await deploy(provider, run, 'ChildFactory');
    const snapshot = await provider.request({ method: 'evm_snapshot', params: [] });
    const data = (salt: number) => factoryAbi().encodeFunctionData('makeTwo', [`0x${salt.toString(16).padStart(64, '0')}`]);
    for (let salt = 1; salt <= 3; salt++) await send(provider, factory, data(salt));
    const all = await listed(provider);
    expect(all.total).to.equal('0x7');

    const pages: Listed[][] = [];
    let cursor: string | null | undefined;
    do {
      const page = await listed(provider, 3, cursor);
      expect(page.contracts.length).to.be.at.most(3);
      pages.push(page.contracts);
      cursor = page.next;
    } while (cursor !== null);
    expect(pages.map((p) => p.length)).to.deep.equal([3, 3, 1]);
    expect(pages.flat()).to.deep.equal(all.contracts);
    expect(all.contracts.at(-1)!.address).to.equal(factory.toLowerCase());
    // A plain JSON number is taken for both, as Otterscan's page sizes are.
    expect((await listed(provider, '0x2', 1)).contracts).to.deep.equal([all.contracts[6]]);

    expect(await provider.request({ method: 'evm_revert', params: [snapshot] })).to.equal(true);
    const after = await listed(provider);
    expect(after.total).to.equal('0x1');
    expect(after.contracts.map((c) => c.address)).to.deep.equal([factory.toLowerCase()]);
    // Blocks mined after the revert list theirs again.
    await send(provider, factory, data(9));
    expect((await listed(provider)).total).to.equal('0x3');
    // Anvil's rollback and a reset drop them with their blocks too.
    await provider.request({ method: 'anvil_rollback', params: [1] });
    expect((await listed(provider)).total).to.equal('0x1');
    await provider.request({ method: 'hardhat_reset', params: [] });
    expect(await listed(provider)).to.deep.equal({ contracts: [], total: '0x0', next: null });
  });

  it('keeps the list across a --state restart and an RLP export imported elsewhere; an old state file lists top-level deploys', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chain-sim-deployed-'));
    try {
      const stateFile = path.join(dir, 'state.json');
      // One clock for both nodes, so the importing node's genesis is the exporting node's.
      const wallClock = () => 1_800_000_000_000;
      const source = createProvider({ quiet: true, artifacts: false, stateFile, wallClock });
      const factory = await deploy(source, run, 'ChildFactory');
      await send(source, factory, factoryAbi().encodeFunctionData('makeTwo', [SALT]));
      await send(source, factory, factoryAbi().encodeFunctionData('makeSome'));
      const expected = await listed(source);
      expect(expected.total).to.equal('0x4');
      const rlp = (await source.request({ method: 'chain_exportChain', params: [] })) as string;
      await source.disconnect();

      const restarted = createProvider({ quiet: true, artifacts: false, stateFile });
      expect(await listed(restarted)).to.deep.equal(expected);
      await restarted.disconnect();

      // Blocks imported from a chain file are run here: what they create is recorded as when mined.
      const chainFile = path.join(dir, 'chain.rlp');
      writeFileSync(chainFile, Buffer.from(rlp.slice(2), 'hex'));
      const imported = createProvider({ quiet: true, artifacts: false, import: chainFile, wallClock });
      expect(await listed(imported)).to.deep.equal(expected);
      await imported.disconnect();

      // A state file written before blocks carried their deployments: the receipts' contract addresses.
      const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as { blocks: Array<Record<string, unknown>> };
      for (const block of saved.blocks) delete block.deployments;
      writeFileSync(stateFile, JSON.stringify(saved));
      const old = createProvider({ quiet: true, artifacts: false, stateFile });
      expect((await listed(old)).contracts).to.deep.equal(expected.contracts.filter((c) => c.address === factory.toLowerCase()));
      await old.disconnect();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad parameters by name', async () => {
    const provider = createProvider({ quiet: true, artifacts: false });
    const refusal = async (params: unknown[]) => {
      try {
        await provider.request({ method: 'chain_deployedContracts', params });
      } catch (error) {
        return (error as { code: number; message: string }).code + ' ' + (error as Error).message;
      }
      throw new Error(`${JSON.stringify(params)} was accepted`);
    };
    expect(await refusal([0])).to.equal('-32602 invalid argument 0 (limit): expected a page size from 1 to 1000, got 0');
    expect(await refusal([1001])).to.equal('-32602 invalid argument 0 (limit): expected a page size from 1 to 1000, got 1001');
    expect(await refusal(['ten'])).to.match(/^-32602 invalid argument 0 \(limit\): /);
    expect(await refusal([10, -1])).to.equal('-32602 invalid argument 1 (cursor): expected a non-negative integer, got -1');
    expect(await refusal([10, '0x01'])).to.match(/^-32602 invalid argument 1 \(cursor\): hex number with leading zero digits/);
    expect(await refusal([10, 1.5])).to.match(/^-32602 invalid argument 1 \(cursor\): /);
    expect(await refusal([10, 0, 1])).to.match(/^-32602 /);
  });
});

describe('chain_identifyContract: a beacon proxy', function () {
  this.timeout(120_000);

  it('names the implementation its beacon answers, and the beacon', async () => {
    const run = compile();
    const provider = createProvider({ quiet: true, artifacts: false });
    await provider.request({ method: 'chain_loadArtifacts', params: [{ input: run.input, output: run.output }] });
    const child = await deploy(provider, run, 'Child', word(7));
    const beacon = await deploy(provider, run, 'UpgradeableBeacon', word(child));
    const proxy = await deploy(provider, run, 'BeaconProxy', word(beacon));
    const identified = (await provider.request({ method: 'chain_identifyContract', params: [proxy] })) as {
      contract: { name: string };
      proxy: { standard: string; implementation: string; contract: { name: string; abi: unknown[] }; beacon: { address: string; contract: { name: string } } };
    };
    expect(identified.contract.name).to.equal('BeaconProxy');
    expect(identified.proxy).to.deep.include({ standard: 'EIP-1967 beacon', implementation: child.toLowerCase() });
    expect(identified.proxy.contract.name).to.equal('Child');
    expect(identified.proxy.beacon).to.deep.include({ address: beacon.toLowerCase() });
    expect(identified.proxy.beacon.contract.name).to.equal('UpgradeableBeacon');
    // A beacon that names no contract: the proxy is still named, with no implementation behind it.
    const emptyBeacon = await deploy(provider, run, 'UpgradeableBeacon', word(0));
    const orphan = await deploy(provider, run, 'BeaconProxy', word(emptyBeacon));
    const alone = (await provider.request({ method: 'chain_identifyContract', params: [orphan] })) as { contract: { name: string }; proxy?: unknown };
    expect(alone.contract.name).to.equal('BeaconProxy');
    expect(alone.proxy).to.equal(undefined);
  });
});
