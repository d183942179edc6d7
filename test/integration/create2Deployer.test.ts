/**
 * Anvil's CREATE2 deployer (0x4e59…956C) in the genesis state: forge scripts deploy with salts
 * through it by sending `salt ++ initCode` to it, and read the new address from its answer.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Interface, getCreate2Address, keccak256 } from 'ethers';
import { artifact, nodesPerTest, send } from '../helpers/chain.js';

const DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
/** foundry's DEFAULT_CREATE2_DEPLOYER_CODEHASH. */
const DEPLOYER_CODE_HASH = '0x2fa86add0aed31f33a762c9d88e807c475bd51d0f52bd0955754b2608f7e4989';
const SCHEDULE_GENESIS = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));
const SALT = `0x${'00'.repeat(31)}2a`;
const token = new Interface(artifact('Token').abi);
const INIT_CODE = artifact('Token').bytecode + token.encodeDeploy(['Salted', 'SLT', 1000n]).slice(2);

describe('the CREATE2 deployer in genesis (Anvil)', function () {
  this.timeout(30_000);
  const node = nodesPerTest();

  it("has Anvil's runtime code, nonce 0 and no balance", async () => {
    const { rpc } = node();
    const code = await rpc<string>('eth_getCode', [DEPLOYER, 'earliest']);
    expect(keccak256(code)).to.equal(DEPLOYER_CODE_HASH);
    expect(await rpc('eth_getTransactionCount', [DEPLOYER, 'earliest'])).to.equal('0x0');
    expect(await rpc('eth_getBalance', [DEPLOYER, 'earliest'])).to.equal('0x0');
  });

  it("deploys forge's raw transaction (salt ++ init code) at getCreate2Address, once per salt", async () => {
    const { rpc } = node();
    const expected = getCreate2Address(DEPLOYER, SALT, keccak256(INIT_CODE)).toLowerCase();
    const data = SALT + INIT_CODE.slice(2);
    // forge reads the address from the deployer's answer before it sends.
    expect(await rpc<string>('eth_call', [{ to: DEPLOYER, data }])).to.equal(expected);
    const receipt = await send(rpc, 0, { to: DEPLOYER, data, gasLimit: 3_000_000 });
    expect(receipt.status).to.equal('0x1');
    expect(receipt.contractAddress).to.equal(null); // a call, not a creation: the address comes from CREATE2
    const name = await rpc<string>('eth_call', [{ to: expected, data: token.encodeFunctionData('name') }]);
    expect(token.decodeFunctionResult('name', name)[0]).to.equal('Salted');
    // The same salt and code again: CREATE2 collides and the deployer reverts.
    expect((await send(rpc, 1, { to: DEPLOYER, data, gasLimit: 3_000_000 })).status).to.equal('0x0');
  });

  it('noCreate2Deployer leaves it out; a reset brings it back otherwise', async () => {
    expect(await node({ noCreate2Deployer: true }).rpc('eth_getCode', [DEPLOYER, 'latest'])).to.equal('0x');
    const { rpc } = node();
    await rpc('hardhat_setCode', [DEPLOYER, '0x']);
    expect(await rpc('eth_getCode', [DEPLOYER, 'latest'])).to.equal('0x');
    await rpc('anvil_reset', []);
    expect(keccak256(await rpc<string>('eth_getCode', [DEPLOYER, 'latest']))).to.equal(DEPLOYER_CODE_HASH);
  });

  it('a --genesis file keeps its exact state (no deployer added)', async () => {
    const { rpc } = node({ genesis: SCHEDULE_GENESIS, hardfork: undefined });
    expect(await rpc('eth_getCode', [DEPLOYER, 'latest'])).to.equal('0x');
  });

  it('a fixture may replace it; the state dump lists it', async () => {
    const dump = await node().rpc<{ alloc: Record<string, { code?: string }> }>('chain_dumpState');
    expect(keccak256(dump.alloc[DEPLOYER]!.code!)).to.equal(DEPLOYER_CODE_HASH);
    const dir = await mkdtemp(join(tmpdir(), 'chain-sim-create2-'));
    try {
      const fixture = join(dir, 'fixture.json');
      await writeFile(fixture, JSON.stringify({ alloc: { [DEPLOYER]: { balance: '0x5', code: '0x6001' } } }));
      const { rpc } = node({ fixtures: [fixture] });
      expect(await rpc('eth_getCode', [DEPLOYER, 'earliest'])).to.equal('0x6001');
      expect(await rpc('eth_getBalance', [DEPLOYER, 'earliest'])).to.equal('0x5');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
