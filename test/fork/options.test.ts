import { expect } from 'chai';
import { normalizeForkFlags } from '../../src/fork/options.js';
import { maskUrl } from '../../src/fork/upstream.js';
import { resolveOptions } from '../../src/options.js';

describe('forking options in every spelling', () => {
  it("reads URL@BLOCK, Ganache's and Hardhat's shapes, and headers in three forms", () => {
    const a = resolveOptions({ fork: 'http://127.0.0.1:8545@123', forkHeader: ['X-Key: abc', 'Other:  v '] }).fork!;
    expect([a.url, a.blockNumber, a.headers]).to.deep.equal(['http://127.0.0.1:8545', 123n, { 'X-Key': 'abc', Other: 'v' }]);
    const b = resolveOptions({ fork: { url: 'https://rpc.example/', blockNumber: 5, headers: [{ name: 'Authorization', value: 'Bearer t' }] } }).fork!;
    expect([b.url, b.blockNumber, b.headers]).to.deep.equal(['https://rpc.example/', 5n, { Authorization: 'Bearer t' }]);
    const c = resolveOptions({ forking: { url: 'https://rpc.example/', blockNumber: '0x10', httpHeaders: { 'X-A': '1' } } }).fork!;
    expect([c.url, c.blockNumber, c.headers]).to.deep.equal(['https://rpc.example/', 16n, { 'X-A': '1' }]);
    expect(resolveOptions({ forking: { url: 'https://rpc.example/', enabled: false } }).fork).to.equal(undefined);
    expect(resolveOptions({ fork: 'http://h:1', forkBlockNumber: '-5' }).fork!.blockNumber).to.equal(-5n);
    expect(resolveOptions({ fork: 'http://h:1', forkCache: false }).fork!.cacheDir).to.equal(null);
    expect(resolveOptions({ fork: 'http://h:1', forkCacheDir: '/tmp/x' }).fork!.cacheDir).to.equal('/tmp/x');
  });

  it('refuses what it cannot honour, naming the option', () => {
    const refused = (options: Parameters<typeof resolveOptions>[0], message: RegExp) => expect(() => resolveOptions(options)).to.throw(message);
    refused({ forkBlockNumber: '5' }, /fork-block-number: needs a fork URL/);
    refused({ fork: 'ws://h:1' }, /fork: only http and https/);
    refused({ fork: 'not a url' }, /fork: "not a url" is not a URL/);
    refused({ fork: 'http://h:1@7', forkBlockNumber: '8' }, /conflicts with the block in the fork URL \(7\)/);
    refused({ fork: 'http://h:1', forkHeader: ['no colon'] }, /fork-header: expected "Name: value"/);
    refused({ fork: 'http://h:1', forkTimeout: -1 }, /fork-timeout/);
    refused({ fork: 'http://h:1', genesis: 'g.json' }, /fork: cannot be combined with --genesis/);
    expect(() => resolveOptions({ fork: 'http://h:1', stateFile: 's.json' })).to.not.throw(); // test/fork/state.test.ts
    refused({ fork: 'http://h:1', forking: { url: 'http://h:2' } }, /either fork or forking/);
  });

  it("rewrites Ganache's and Anvil's flags, and masks credentials and keys in printed URLs", () => {
    expect(normalizeForkFlags(['--fork.url', 'U', '--fork.blockNumber=9', '--fork-url', 'V', '--fork.headers', 'A: b', '-p', '0'])).to.deep.equal([
      '--fork',
      'U',
      '--fork-block-number=9',
      '--fork',
      'V',
      '--fork-header',
      'A: b',
      '-p',
      '0',
    ]);
    expect(maskUrl('https://user:pw@eth-mainnet.example/v2/abcdefghijklmnopqrstuvwxyz012345?key=secret')).to.equal(
      'https://***:***@eth-mainnet.example/v2/***?key=***',
    );
  });
});
