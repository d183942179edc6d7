import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const moduleUrl = new URL('../../src/cli/compactHeap.js', import.meta.url).href;

/**
 * The largest young generation (both semi-spaces, MiB) a child process reaches while it
 * keeps 300,000 objects alive and replaces them, as a node's blocks and caches do.
 */
async function youngGenerationMiB(compact: boolean): Promise<number> {
  const script = `
    import v8 from 'node:v8';
    if (${compact}) await (await import(${JSON.stringify(moduleUrl)})).useCompactHeap();
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const live = new Array(300_000);
    let max = 0;
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < live.length; i++) {
        live[i] = { i, round: [round] };
        if (i % 20_000 === 0) { await new Promise((r) => setImmediate(r)); max = Math.max(max, newSpace()); }
      }
    }
    console.log(max / 2 ** 20);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return Number(stdout.trim());
}

describe('compactHeap (the CLI server process)', () => {
  it('keeps the young generation at two 4 MiB semi-spaces, where V8 alone grows it to 32 MiB', async () => {
    const [plain, compact] = await Promise.all([youngGenerationMiB(false), youngGenerationMiB(true)]);
    expect(plain).to.be.greaterThan(8); // 32 with 64-bit defaults
    expect(compact).to.equal(8);
  });
});
