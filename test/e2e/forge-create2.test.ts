/**
 * The real `forge script` (from npm, offline through solc-js) deploying `new Box{salt: ...}(42)`
 * against a chain-sim server: forge sends it through the CREATE2 deployer in genesis, and the
 * contract lands at getCreate2Address. Without the deployer (--no-create2-deployer) forge refuses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AbiCoder, getCreate2Address, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { result } from '../helpers/anvil.js';
import { KEYS } from '../helpers/chain.js';
import { findForge, writeOfflineProject } from '../helpers/forge.js';

const DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
const BOX = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Box {
    uint256 public value;
    constructor(uint256 v) { value = v; }
}
`;
// forge-std's Vm at its fixed address, declared here: the project has no libraries.
const SCRIPT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import {Box} from "../src/Box.sol";
interface Vm { function startBroadcast() external; function stopBroadcast() external; }
contract Deploy {
    bool public IS_SCRIPT = true;
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    function run() external returns (address) {
        vm.startBroadcast();
        Box box = new Box{salt: bytes32(uint256(7))}(42);
        vm.stopBroadcast();
        return address(box);
    }
}
`;

function runForge(binary: string, cwd: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(binary, args, { cwd, env: { ...process.env, HOME: cwd, NO_COLOR: '1' }, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, output: `${stdout}${stderr}` });
    });
  });
}

describe('forge script deploys with a salt through the genesis CREATE2 deployer', function () {
  this.timeout(300_000);
  let forge: string | undefined;
  let dir = '';
  const servers: ChainSimServer[] = [];
  const serve = async (options: { noCreate2Deployer?: boolean }) => {
    const server = await createServer({ quiet: true, ...options });
    servers.push(server);
    return (await server.listen(0, '127.0.0.1')).url;
  };

  before(async function () {
    forge = findForge();
    if (!forge) this.skip();
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-forge-'));
    await writeOfflineProject(dir, { 'src/Box.sol': BOX, 'script/Deploy.s.sol': SCRIPT });
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const script = (url: string) => ['script', 'script/Deploy.s.sol:Deploy', '--rpc-url', url, '--broadcast', '--private-key', KEYS[0]];

  it('lands at getCreate2Address(deployer, salt, keccak(initCode)) and runs its constructor', async () => {
    const url = await serve({});
    const { code, output } = await runForge(forge!, dir, script(url));
    expect(code, output).to.equal(0);
    expect(output).to.include('ONCHAIN EXECUTION COMPLETE & SUCCESSFUL');
    const artifact = JSON.parse(await readFile(join(dir, 'out', 'Box.sol', 'Box.json'), 'utf8')) as { bytecode: { object: string } };
    const initCode = artifact.bytecode.object + AbiCoder.defaultAbiCoder().encode(['uint256'], [42]).slice(2);
    const expected = getCreate2Address(DEPLOYER, zeroPadValue(toBeHex(7), 32), keccak256(initCode));
    expect(output).to.include(`0: address ${expected}`);
    expect(await result(url, 'eth_call', [{ to: expected, data: '0x3fa4f245' }, 'latest'])).to.equal(zeroPadValue(toBeHex(42), 32)); // value()
    // forge sent one transaction, to the deployer.
    const block = await result<{ transactions: Array<{ to: string }> }>(url, 'eth_getBlockByNumber', ['0x1', true]);
    expect(block.transactions.map((tx) => tx.to)).to.deep.equal([DEPLOYER.toLowerCase()]);
  });

  it('--no-create2-deployer: forge finds no deployer and refuses', async () => {
    const url = await serve({ noCreate2Deployer: true });
    const { code, output } = await runForge(forge!, dir, script(url));
    expect(code, output).to.not.equal(0);
    expect(output).to.match(/CREATE2 Deployer/i);
    expect(await result(url, 'eth_blockNumber')).to.equal('0x0');
  });
});
