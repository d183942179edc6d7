import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Interface, JsonRpcProvider, getAddress, getCreateAddress } from 'ethers';
import { ADDRESSES, artifact, deploy, newNode, nonceOf } from '../helpers/chain.js';
import { type RunningCli, runCli, runNode, startCli } from '../helpers/cli.js';

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const COLLECTIBLE = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const DEPLOYER_NONCE = 9; // the same in both fixtures (fixtures/README.md)
const token = new Interface(artifact('Token').abi);
const nft = new Interface(artifact('Collectible').abi);
const balanceOfCall = (holder: string) => ({ to: TOKEN, data: token.encodeFunctionData('balanceOf', [holder]) });
const [A0, A1, A2] = ADDRESSES.map((a) => getAddress(a)) as [string, string, string];
const TKN = 10n ** 18n;
const AT_GENESIS = { blockTag: 0 };

/** `npx chain-sim --port 0 --fixture ...`, as a CI job starts it, read with ethers over HTTP. */
function fixtureCli(files: string[]): { http: () => JsonRpcProvider } {
  let cli: RunningCli;
  let http: JsonRpcProvider;
  before(async () => {
    cli = await startCli(['chain-sim', '--port', '0', ...files.flatMap((f) => ['--fixture', f])], { command: 'npx', prefix: ['--no-install'] });
    http = new JsonRpcProvider(cli.url, undefined, { staticNetwork: true });
  });
  after(async () => {
    http.destroy();
    await cli.stop();
  });
  return { http: () => http };
}

async function expectErc20Holders(http: JsonRpcProvider): Promise<void> {
  const erc20 = new Contract(TOKEN, token, http);
  expect(await erc20.getFunction('balanceOf')(A1, AT_GENESIS)).to.equal(1000n * TKN);
  expect(await erc20.getFunction('balanceOf')(A2, AT_GENESIS)).to.equal(1000n * TKN);
  expect(await erc20.getFunction('balanceOf')(A0, AT_GENESIS)).to.equal(998_000n * TKN);
  expect(await erc20.getFunction('totalSupply')(AT_GENESIS)).to.equal(1_000_000n * TKN);
}

async function expectErc721Holders(http: JsonRpcProvider): Promise<void> {
  const erc721 = new Contract(COLLECTIBLE, nft, http);
  const owners = [A0, A0, A1, A1, A2];
  for (const [index, holder] of owners.entries()) expect(await erc721.getFunction('ownerOf')(index + 1, AT_GENESIS), `owner of ${index + 1}`).to.equal(holder);
  expect(await erc721.getFunction('balanceOf')(A0, AT_GENESIS)).to.equal(2n);
  expect(await erc721.getFunction('balanceOf')(A1, AT_GENESIS)).to.equal(2n);
  expect(await erc721.getFunction('balanceOf')(A2, AT_GENESIS)).to.equal(1n);
  expect(await erc721.getFunction('tokenURI')(3, AT_GENESIS)).to.equal('https://chain-sim.invalid/collectible/3');
  expect(await erc721.getFunction('supportsInterface')('0x80ac58cd', AT_GENESIS)).to.equal(true);
  expect(await erc721.getFunction('owner')(AT_GENESIS)).to.equal(A0);
}

describe('--fixture: state files in the genesis block', function () {
  this.timeout(60_000);

  describe('npx chain-sim --fixture fixtures/erc20.json (as in CI)', () => {
    const node = fixtureCli(['fixtures/erc20.json']);

    it('answers balanceOf for the fixture holders at block 0', async () => {
      await expectErc20Holders(node.http());
      expect(await node.http().getBlockNumber()).to.equal(0);
      // The deployer's nonce came along, so its next contract does not land on the token.
      expect(await node.http().getTransactionCount(A0, 0)).to.equal(DEPLOYER_NONCE);
    });
  });

  describe('npx chain-sim --fixture fixtures/erc721.json (as in CI)', () => {
    const node = fixtureCli(['fixtures/erc721.json']);

    it('answers ownerOf, balanceOf, tokenURI and supportsInterface at block 0', async () => {
      await expectErc721Holders(node.http());
      expect(await node.http().getTransactionCount(A0, 0)).to.equal(DEPLOYER_NONCE);
      expect(await node.http().getCode(TOKEN, 0)).to.equal('0x');
    });
  });

  describe('npx chain-sim with both fixtures (as in CI)', () => {
    const node = fixtureCli(['fixtures/erc20.json', 'fixtures/erc721.json']);

    it('serves the token and the collectible side by side at block 0', async () => {
      await expectErc20Holders(node.http());
      await expectErc721Holders(node.http());
      expect(await node.http().getTransactionCount(A0, 0)).to.equal(DEPLOYER_NONCE);
    });
  });

  it('both fixtures in either order: the same deployer, whose next contract lands on a fresh address', async () => {
    for (const fixtures of [
      ['fixtures/erc20.json', 'fixtures/erc721.json'],
      ['fixtures/erc721.json', 'fixtures/erc20.json'],
    ]) {
      const { rpc } = newNode({ fixtures });
      expect(await nonceOf(rpc, ADDRESSES[0]!, 'latest'), fixtures.join(' ')).to.equal(DEPLOYER_NONCE);
      const next = await deploy(rpc, 'Token', ['Again', 'AGN', 1n]);
      expect(next).to.equal(getCreateAddress({ from: A0, nonce: DEPLOYER_NONCE }).toLowerCase());
      expect(BigInt(await rpc<string>('eth_call', [balanceOfCall(ADDRESSES[1]!), 'latest']))).to.equal(1000n * TKN);
      expect(await rpc<string>('eth_getCode', [COLLECTIBLE, 'latest'])).to.have.length.above(1000);
    }
  });

  it('the committed artifacts and fixtures are what their sources build', async () => {
    for (const script of ['scripts/compile-fixtures.mjs', 'scripts/build-fixtures.mjs']) {
      const result = await runNode([script, '--check']);
      expect(result.code, `${script} --check: ${result.stderr}`).to.equal(0);
    }
  });

  it('is part of block 0: later blocks do not hide it from reads at block 0', async () => {
    const { rpc, provider } = newNode({ fixtures: ['fixtures/erc20.json'] });
    await rpc('evm_mine');
    expect(BigInt(await rpc<string>('eth_call', [balanceOfCall(ADDRESSES[1]!), '0x0']))).to.equal(1000n * 10n ** 18n);
    const genesis = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['0x0', false]);
    const node = await provider.ready();
    expect(genesis.stateRoot).to.equal(`0x${Buffer.from(node.chain.blocks.byNumber(0n)!.block.header.stateRoot).toString('hex')}`);
  });

  it('applies several files in order (later files win) with their chain settings and keys', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chain-sim-fixture-'));
    try {
      const a = join(dir, 'a.json');
      const b = join(dir, 'b.json');
      const key = `0x${'42'.repeat(32)}`;
      await writeFile(a, JSON.stringify({ chainId: '0x309', alloc: { '0x00000000000000000000000000000000000000aa': { balance: '0x1' } } }));
      await writeFile(b, JSON.stringify({ privateKeys: [key], alloc: { '00000000000000000000000000000000000000aa': { balance: '100' } } }));
      const { rpc } = newNode({ fixtures: [a, b] });
      expect(await rpc('eth_chainId')).to.equal('0x309');
      expect(await rpc('eth_getBalance', ['0x00000000000000000000000000000000000000aa', '0x0'])).to.equal('0x64');
      expect(await rpc<string[]>('eth_accounts')).to.have.length(11);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a missing or invalid fixture is a one-line error and exit code 1', async () => {
    for (const args of [
      ['--fixture', 'fixtures/nope.json'],
      ['--fixture', 'fixtures/contracts/Token.sol'],
    ]) {
      const result = await runCli(args);
      expect(result.code, result.stderr).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(/^chain-sim: state file /);
    }
  });
});
