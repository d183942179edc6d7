/** Bad genesis files and conflicting flags: one line on stderr and exit 1 (CLI), a rejected promise (API). */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProvider } from '../../src/index.js';
import { parseGethGenesis, quoteLargeIntegers } from '../../src/genesis/gethGenesis.js';
import { runCli } from '../helpers/cli.js';

const SCHEDULE = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));

type Genesis = { config: Record<string, unknown>; alloc: Record<string, unknown>; [key: string]: unknown };

describe('--genesis errors', function () {
  this.timeout(60_000);
  let dir: string;
  let base: Genesis;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-genesis-errors-'));
    base = JSON.parse(await readFile(SCHEDULE, 'utf8')) as Genesis;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const variant = async (name: string, change: (g: Genesis) => void): Promise<string> => {
    const genesis = structuredClone(base);
    change(genesis);
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(genesis));
    return path;
  };

  const cases: Array<{ name: string; file: () => Promise<string>; message: RegExp }> = [
    { name: 'missing file', file: async () => join(dir, 'nope.json'), message: /: no such file$/ },
    {
      name: 'invalid JSON',
      file: async () => {
        const p = join(dir, 'bad.json');
        await writeFile(p, '{"config": {');
        return p;
      },
      message: /: not valid JSON: /,
    },
    { name: 'unknown fork', file: () => variant('unknown', (g) => (g.config.fooBlock = 3)), message: /: config\.fooBlock: unknown fork$/ },
    {
      name: 'unsupported fork',
      file: () => variant('amsterdam', (g) => (g.config.amsterdamTime = 1_800_000_000)),
      message: /: config\.amsterdamTime: this fork is not supported by chain-sim$/,
    },
    {
      name: 'forks out of order',
      file: () => variant('order', (g) => (g.config.berlinBlock = 4)),
      message: /: config: unsupported fork ordering: berlinBlock enabled at block 4, but londonBlock enabled at block 3$/,
    },
    {
      name: 'fork gap',
      file: () => variant('gap', (g) => delete g.config.petersburgBlock),
      message: /unsupported fork ordering: petersburgBlock not enabled, but istanbulBlock enabled at block 2$/,
    },
    {
      name: 'time forks out of order',
      file: () => variant('times', (g) => (g.config.cancunTime = 1_700_000_500)),
      message: /shanghaiTime enabled at timestamp 1700001000, but cancunTime enabled at timestamp 1700000500$/,
    },
    {
      name: 'bad balance',
      file: () => variant('balance', (g) => (g.alloc['0x00000000000000000000000000000000000000bb'] = { balance: 'lots' })),
      message: /: alloc 0x0+bb\.balance: expected a hex or decimal whole number, got "lots"$/,
    },
    {
      name: 'bad address',
      file: () => variant('address', (g) => (g.alloc['0x1234'] = { balance: '0x1' })),
      message: /: alloc: "0x1234" is not a 20-byte address$/,
    },
    {
      name: 'missing balance',
      file: () => variant('nobalance', (g) => (g.alloc['0x00000000000000000000000000000000000000bb'] = { nonce: '0x1' })),
      message: /: alloc 0x0+bb: missing required field "balance"$/,
    },
    { name: 'missing gasLimit', file: () => variant('nogas', (g) => delete g.gasLimit), message: /: missing required field "gasLimit"$/ },
    {
      name: 'blob fields before Cancun',
      file: () => variant('blobs', (g) => (g.excessBlobGas = '0x0')),
      message: /excessBlobGas and blobGasUsed need Cancun active at genesis$/,
    },
  ];

  for (const { name, file, message } of cases) {
    it(`${name}: the CLI exits 1 with one line; the API rejects`, async () => {
      const path = await file();
      const result = await runCli(['--genesis', path]);
      expect(result.code, result.stderr).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr.trim()).to.match(new RegExp(`^chain-sim: genesis file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
      expect(result.stderr.trim()).to.match(message);
      const provider = createProvider({ genesis: path, quiet: true });
      let rejected: unknown;
      await provider.ready().catch((error: unknown) => (rejected = error));
      expect(String((rejected as Error | undefined)?.message)).to.match(message);
    });
  }

  it('refuses flags the genesis file decides', async () => {
    for (const flag of [
      ['--hardfork', 'cancun'],
      ['--chain-id', '5'],
      ['--gas-limit', '1000000'],
      ['--base-fee', '7'],
    ]) {
      const result = await runCli(['--genesis', SCHEDULE, ...flag]);
      expect(result.code, result.stderr).to.equal(1);
      expect(result.stderr.trim()).to.equal(`chain-sim: invalid value for genesis: cannot be combined with ${flag[0]}: the genesis file sets it`);
    }
  });

  it('reads quantities as go-ethereum does: hex or decimal, case-insensitive keys, big integers exact', () => {
    const parsed = parseGethGenesis(
      JSON.parse(
        quoteLargeIntegers(
          JSON.stringify({
            config: {
              chainId: '0x5',
              homesteadBlock: 0,
              eip150Block: 0,
              eip155Block: 0,
              eip158Block: 0,
              byzantiumBlock: 0,
              constantinopleBlock: 0,
              petersburgBlock: 0,
              istanbulBlock: 0,
              berlinBlock: 0,
              londonBlock: 0,
            },
            difficulty: '131072',
            gasLimit: 0,
            MIXHASH: `0x${'11'.repeat(32)}`,
            nonce: '0x000000000000000',
            alloc: {},
          }).replace('"difficulty":"131072"', '"difficulty":123456789012345678901234'),
        ),
      ),
    );
    expect(parsed.chainId).to.equal(5n);
    expect(parsed.header.difficulty).to.equal(123456789012345678901234n);
    expect(parsed.header.gasLimit).to.equal(4_712_388n); // go-ethereum's default for 0
    expect(parsed.header.mixHash[0]).to.equal(0x11);
    expect(parsed.schedule.forks.map((f) => f.name)).to.not.include('paris'); // no TTD: proof of work for ever
  });

  it('places the merge where the terminal total difficulty is reached by difficulty-1 blocks', () => {
    const config = {
      chainId: 1,
      homesteadBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      byzantiumBlock: 0,
      constantinopleBlock: 0,
      petersburgBlock: 0,
      istanbulBlock: 0,
      berlinBlock: 0,
      londonBlock: 0,
      terminalTotalDifficulty: 100,
    };
    const parsed = parseGethGenesis({ config, difficulty: '0x10', gasLimit: '0x1000000', alloc: {} });
    // Block n has total difficulty 16 + n: block 84 reaches 100, block 85 is the first without proof of work.
    expect(parsed.schedule.forks.find((f) => f.name === 'paris')?.block).to.equal(85n);
  });
});
