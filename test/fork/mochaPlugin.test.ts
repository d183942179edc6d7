import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { ROOT } from '../helpers/cli.js';
import { holder, upstreamForSuite } from './upstream.js';

describe('forking through CHAIN_SIM_OPTIONS and the chain-sim/mocha plugin', function () {
  this.timeout(60_000);
  const up = upstreamForSuite();

  it('forks the upstream, and the plugin isolates each test at the pinned state', async () => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['node_modules/mocha/bin/mocha.js', '--no-config', '--require', 'dist/src/mocha.js', 'test/fork/mocha-project/fork.spec.mjs'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            CHAIN_SIM_OPTIONS: JSON.stringify({ fork: { url: up().url, blockNumber: Number(up().holdersBlock) }, forkCache: false }),
            TOKEN: up().tokenAddress,
            HOLDER: holder(30),
            RECIPIENT: '0x00000000000000000000000000000000000000cc',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.once('exit', (code) => resolve({ code, output }));
    });
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.match(/2 passing/);
  });
});
