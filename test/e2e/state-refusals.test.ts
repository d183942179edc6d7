/**
 * --state refuses files it would clobber (issue 25, item 6) and names the file in every
 * error about it (item 7): the real CLI must exit with code 1 and one line, and the file
 * must stay byte for byte and mode for mode as it was.
 */
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';

/** Run the CLI; one that starts listening (the bug: it took the file) is killed and reported as such. */
function runCliBriefly(args: string[]): Promise<{ code: number | null; stderr: string; listened: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let listened = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (!listened && /Listening on/.test(stdout)) {
        listened = true;
        // It would now rewrite the file on exit, as the bug did: stop it as a user would.
        setTimeout(() => child.kill('SIGTERM'), 500);
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, listened });
    });
  });
}

const PACKAGE_JSON = `${JSON.stringify({ name: 'my-dapp', version: '1.0.0', scripts: { test: 'mocha' }, devDependencies: { 'chain-sim': '^0.1.0' } }, null, 2)}\n`;
const GETH_GENESIS = `${JSON.stringify(
  {
    config: { chainId: 1337, homesteadBlock: 0, londonBlock: 0, terminalTotalDifficulty: 0 },
    difficulty: '0x1',
    gasLimit: '0x1c9c380',
    extraData: '0x',
    alloc: { '0x00000000000000000000000000000000000a11ce': { balance: '0x1' } },
  },
  null,
  2,
)}\n`;
const ANVIL_DUMP = JSON.stringify({ block: { number: '0x1' }, accounts: {}, best_block_number: '0x1', blocks: [] });
const OK_ALLOC = { '0x00000000000000000000000000000000000a11ce': { balance: '0x1' } };

describe('e2e: --state refuses what it would clobber, and says where', function () {
  this.timeout(60_000);

  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-refusals-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const cases: Array<[label: string, name: string, content: string, message: RegExp]> = [
    ['package.json', 'package.json', PACKAGE_JSON, /not a chain-sim state file: it has a field "name"/],
    ['a go-ethereum genesis file', 'genesis.json', GETH_GENESIS, /not a chain-sim state file: it has a field "config"/],
    ['an Anvil dump (chain-sim would rewrite it in its own format)', 'anvil.json', ANVIL_DUMP, /not a chain-sim state file: it has a field "block"/],
    ['an object without alloc', 'settings.json', '{"chainId":"0x1"}', /no "alloc" field/],
    ['an empty file (documented: refused as not JSON)', 'empty.json', '', /not valid JSON/],
    [
      'a timestamp past uint64',
      'ts.json',
      JSON.stringify({ timestamp: `0x1${'0'.repeat(16)}`, alloc: OK_ALLOC }),
      /state\.timestamp: "0x10000000000000000" is out of range \(at most 2\^64-1\)/,
    ],
    [
      'a clock offset past uint64',
      'offset.json',
      JSON.stringify({ clockOffset: `0x1${'0'.repeat(16)}`, alloc: OK_ALLOC }),
      /state\.clockOffset: .* out of range/,
    ],
    [
      'a clock offset that puts the clock past uint64',
      'offset2.json',
      JSON.stringify({ clockOffset: `0x${'f'.repeat(16)}`, alloc: OK_ALLOC }),
      /state\.clockOffset: 18446744073709551615 puts the clock past 2\^64-1/,
    ],
    [
      'a negative clock offset past uint64',
      'offset3.json',
      JSON.stringify({ clockOffset: `-0x1${'0'.repeat(16)}`, alloc: OK_ALLOC }),
      /state\.clockOffset: .* out of range/,
    ],
    [
      'a nonce past uint64',
      'nonce.json',
      JSON.stringify({ alloc: { '0x00000000000000000000000000000000000a11ce': { nonce: `0x1${'0'.repeat(16)}` } } }),
      /nonce: .* out of range/,
    ],
    [
      'a balance past uint256',
      'balance.json',
      JSON.stringify({ alloc: { '0x00000000000000000000000000000000000a11ce': { balance: `0x1${'0'.repeat(64)}` } } }),
      /balance: .* out of range/,
    ],
    ['an unknown hardfork', 'hardfork.json', JSON.stringify({ hardfork: 'atlantis', alloc: OK_ALLOC }), /state\.hardfork: unknown hardfork "atlantis"/],
    ['a chain id of 0', 'chainid.json', JSON.stringify({ chainId: '0x0', alloc: OK_ALLOC }), /state\.chainId: /],
    ['a gas limit below 5000', 'gas.json', JSON.stringify({ gasLimit: '0x1', alloc: OK_ALLOC }), /state\.gasLimit: /],
    [
      'a zero private key',
      'key0.json',
      JSON.stringify({ privateKeys: [`0x${'00'.repeat(32)}`], alloc: OK_ALLOC }),
      /state\.privateKeys\[0\]: not a valid secp256k1 private key/,
    ],
    [
      'a private key at the curve order',
      'keyn.json',
      JSON.stringify({ privateKeys: ['0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'], alloc: OK_ALLOC }),
      /state\.privateKeys\[0\]: not a valid secp256k1 private key/,
    ],
  ];
  for (const [label, name, content, message] of cases) {
    it(`refuses ${label}: exit code 1, one line naming the file, the file untouched`, async () => {
      const file = join(dir, name);
      await writeFile(file, content);
      await chmod(file, 0o644);
      const before = await stat(file);
      const { code, stderr, listened } = await runCliBriefly(['--port', '0', '--quiet', '--state', file]);
      expect(listened, `the node started on ${name}:\n${stderr}`).to.equal(false);
      expect(code).to.equal(1);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).to.have.length(1);
      expect(lines[0]!.startsWith(`chain-sim: state file ${file}: `), lines[0]).to.equal(true);
      expect(lines[0]).to.match(message);
      expect(await readFile(file, 'utf8')).to.equal(content);
      const after = await stat(file);
      expect(after.mode).to.equal(before.mode);
      expect(after.mtimeMs).to.equal(before.mtimeMs);
    });
  }

  it('still takes a plain state file (chain_dumpState output, a fixture) and a missing file', async () => {
    const plain = join(dir, 'plain.json');
    await writeFile(plain, JSON.stringify({ chainId: '0x539', hardfork: 'cancun', gasLimit: '0x1c9c380', timestamp: '0x1', alloc: OK_ALLOC }));
    const fresh = join(dir, 'new.json');
    for (const file of [plain, fresh]) {
      const { code, listened, stderr } = await runCliBriefly(['--port', '0', '--quiet', '--state', file]);
      expect(listened, stderr).to.equal(true);
      expect(code).to.equal(0);
      expect(JSON.parse(await readFile(file, 'utf8'))).to.have.property('alloc');
    }
  });
});
