import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, newNode } from '../helpers/chain.js';
import { type RunningCli, runCli, startCli } from '../helpers/cli.js';

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const token = new Interface(artifact('Token').abi);
const balanceOfCall = (holder: string) => ({ to: TOKEN, data: token.encodeFunctionData('balanceOf', [holder]) });

describe('--fixture: state files in the genesis block', function () {
  this.timeout(60_000);

  describe('npx chain-sim --fixture fixtures/erc20.json (as in CI)', () => {
    let cli: RunningCli;
    before(async () => {
      cli = await startCli(['chain-sim', '--port', '0', '--fixture', 'fixtures/erc20.json'], { command: 'npx', prefix: ['--no-install'] });
    });
    after(() => cli.stop());

    it('answers balanceOf for the fixture holders at block 0', async () => {
      const rpc = async (method: string, params: unknown[]) => {
        const response = await fetch(cli.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
        return ((await response.json()) as { result: string }).result;
      };
      const thousand = 1000n * 10n ** 18n;
      expect(BigInt(await rpc('eth_call', [balanceOfCall(ADDRESSES[1]!), '0x0']))).to.equal(thousand);
      expect(BigInt(await rpc('eth_call', [balanceOfCall(ADDRESSES[2]!), '0x0']))).to.equal(thousand);
      expect(BigInt(await rpc('eth_call', [balanceOfCall(ADDRESSES[0]!), '0x0']))).to.equal(1_000_000n * 10n ** 18n - 2n * thousand);
      expect(await rpc('eth_blockNumber', [])).to.equal('0x0');
      // The deployer's nonce came along, so its next contract does not land on the token.
      expect(await rpc('eth_getTransactionCount', [ADDRESSES[0]!, 'latest'])).to.equal('0x3');
    });
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
    for (const args of [['--fixture', 'fixtures/nope.json'], ['--fixture', 'fixtures/contracts/Token.sol']]) {
      const result = await runCli(args);
      expect(result.code, result.stderr).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(/^chain-sim: state file /);
    }
  });
});
