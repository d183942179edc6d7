import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { ROOT } from '../helpers/cli.js';

describe('chain-sim/mocha: the sample project under --parallel', function () {
  this.timeout(120_000);

  it('isolates tests and replays loadFixture without re-running it', async () => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', 'examples/mocha-project/.mocharc.json'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.once('exit', (code) => resolve({ code, output }));
    });
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.match(/5 passing/);
  });
});
