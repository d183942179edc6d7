import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const loaderUrl = new URL('../../../bin/loadCli.js', import.meta.url).href;

/**
 * Load a copy of the CLI's bundle the way bin/chain-sim.js does, in a fresh node process: whether
 * V8 took the cache, and what the bundle's main is; then saveCache (as the CLI calls it once it
 * listens), staying alive until the cache is written.
 */
async function load(bundle: string): Promise<{ cacheUsed: boolean; main: string }> {
  const script = `
    import { loadCli } from ${JSON.stringify(loaderUrl)};
    const { main, saveCache, cacheUsed } = loadCli(${JSON.stringify(bundle)});
    console.log(JSON.stringify({ cacheUsed, main: typeof main }));
    saveCache();
    setTimeout(() => {}, 1500);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout.trim()) as { cacheUsed: boolean; main: string };
}

describe('the CLI loader (bin/loadCli.js): V8 code cache', function () {
  this.timeout(60_000);
  let dir: string;
  let bundle: string;
  const caches = () => readdirSync(path.dirname(bundle)).filter((name) => name.endsWith('.cache'));

  beforeEach(() => {
    // The bundle at the same depth below a package.json as in the package (it reads its version from there).
    dir = mkdtempSync(path.join(tmpdir(), 'chain-sim-code-cache-'));
    mkdirSync(path.join(dir, 'dist', 'bundle'), { recursive: true });
    copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    bundle = path.join(dir, 'dist', 'bundle', 'cli.cjs');
    copyFileSync(path.join(root, 'dist', 'bundle', 'cli.cjs'), bundle);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles without a cache on the first start, writes one, and V8 takes it on the next', async () => {
    expect(await load(bundle)).to.deep.equal({ cacheUsed: false, main: 'function' });
    const written = caches();
    expect(written).to.have.length(1);
    expect(written[0]).to.match(/^cli\.cjs\.[0-9a-f]{16}\.cache$/);
    expect(await load(bundle)).to.deep.equal({ cacheUsed: true, main: 'function' });
  });

  it('does not use a damaged cache: compiles, and writes a good one in its place', async () => {
    await load(bundle);
    const [name] = caches();
    writeFileSync(path.join(path.dirname(bundle), name!), Buffer.alloc(100_000, 7));
    expect(await load(bundle)).to.deep.equal({ cacheUsed: false, main: 'function' });
    expect(await load(bundle)).to.deep.equal({ cacheUsed: true, main: 'function' });
  });

  it("never uses another build's cache (keyed by the bundle's content), and removes it", async () => {
    await load(bundle);
    const [old] = caches();
    // Another build of the same length: V8 alone would take the old cache for it.
    const source = readFileSync(bundle, 'utf8');
    const other = source.replace(/^\/\/ chain-sim bundle ([0-9a-f]{16})/, (_, hash: string) => `// chain-sim bundle ${[...hash].reverse().join('')}`);
    expect(other.length).to.equal(source.length);
    writeFileSync(bundle, other);
    expect(await load(bundle)).to.deep.equal({ cacheUsed: false, main: 'function' });
    expect(caches()).to.have.length(1);
    expect(caches()[0]).to.not.equal(old);
  });
});
