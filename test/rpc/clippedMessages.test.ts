/**
 * Error messages never echo a large input (issue 25, item 7): over HTTP as a client sees
 * them, each long value is cut to its first characters and its size by one helper
 * (src/engine/util/clip.ts).
 */
import { expect } from 'chai';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { CLIP_CHARS, clip, clipLongRuns } from '../../src/engine/util/clip.js';
import { decodeStateFile } from '../../src/persistence/stateFile.js';
import { FIRST_ACCOUNT, postJson } from '../helpers/rpc.js';

const MAX_MESSAGE = 400;

describe('rpc: error messages clip long inputs', function () {
  this.timeout(60_000);

  it('clip keeps short values and cuts long ones to their start and their size in bytes', () => {
    expect(clip('eth_foo')).to.equal('eth_foo');
    expect(clip('x'.repeat(CLIP_CHARS))).to.equal('x'.repeat(CLIP_CHARS));
    expect(clip('x'.repeat(4 * 2 ** 20))).to.equal(`${'x'.repeat(CLIP_CHARS)}… (4194304 bytes)`);
    expect(clip('é'.repeat(100))).to.equal(`${'é'.repeat(CLIP_CHARS)}… (200 bytes)`);
    // A surrogate pair is never split.
    expect(clip(`${'a'.repeat(CLIP_CHARS - 1)}😀${'b'.repeat(10)}`)).to.equal(`${'a'.repeat(CLIP_CHARS - 1)}… (77 bytes)`);
    expect(clipLongRuns(`the method ${'m'.repeat(1000)} does not exist`)).to.equal(`the method ${'m'.repeat(CLIP_CHARS)}… (1000 bytes) does not exist`);
    const prose = Array.from({ length: 100 }, () => 'word').join(' ');
    expect(clipLongRuns(prose)).to.equal(prose);
  });

  describe('over HTTP', () => {
    let server: ChainSimServer;
    let url: string;
    before(async () => {
      server = await createServer({ quiet: true, port: 0, maxBodyBytes: 16 * 2 ** 20 });
      url = (await server.listen()).url;
    });
    after(() => server.close());

    async function errorOf(method: string, params: unknown[]): Promise<{ code: number; message: string }> {
      const res = await postJson(url, { jsonrpc: '2.0', id: 1, method, params });
      expect(res.status).to.equal(200);
      const reply = JSON.parse(res.body) as { error?: { code: number; message: string } };
      expect(reply.error, res.body.slice(0, 200)).to.not.equal(undefined);
      return reply.error!;
    }

    const big = (n: number) => 'A'.repeat(n);
    const cases: Array<[label: string, method: string, params: unknown[], code: number, message: RegExp]> = [
      ['a 4 MB method name (-32601)', big(4 * 2 ** 20), [], -32601, /^the method A{64}… \(4194304 bytes\) does not exist/],
      [
        'a 40 KB EIP-712 type (-32602)',
        'eth_signTypedData_v4',
        [
          FIRST_ACCOUNT,
          {
            types: { EIP712Domain: [], Mail: [{ name: 'x', type: big(40_000) }] },
            primaryType: 'Mail',
            domain: {},
            message: { x: '1' },
          },
        ],
        -32602,
        /^invalid argument 1 \(typedData\): .*A{64}… \(40000 bytes\)/,
      ],
      [
        'a 100 KB field name in a transaction object',
        'eth_call',
        [{ to: FIRST_ACCOUNT, [big(100_000)]: 1 }, 'latest'],
        -32602,
        /unknown field "A{64}… \(100000 bytes\)" in transaction object/,
      ],
      ['a 100 KB field name in a log filter', 'eth_getLogs', [{ [big(100_000)]: 1 }], -32602, /unknown field "A{64}… \(100000 bytes\)" in filter object/],
      [
        'a 100 KB field name in a block object',
        'eth_getBalance',
        [FIRST_ACCOUNT, { blockNumber: '0x0', [big(100_000)]: 1 }],
        -32602,
        /unknown field "A{64}… \(100000 bytes\)" in block object/,
      ],
      ['a 100 KB block tag', 'eth_getBalance', [FIRST_ACCOUNT, big(100_000)], -32602, /got "A{64}… \(100000 bytes\)"/],
      [
        'a 100 KB tracer option',
        'debug_traceCall',
        [{ to: FIRST_ACCOUNT }, 'latest', { [big(100_000)]: 1 }],
        -32602,
        /unknown field "A{64}… \(100000 bytes\)"/,
      ],
      [
        'a 100 KB address in a state to load',
        'chain_loadState',
        [{ alloc: { [`0x${big(100_000)}`]: {} } }],
        -32602,
        /alloc\.0xA{62}… \(100002 bytes\): not a 20-byte address/,
      ],
    ];
    for (const [label, method, params, code, message] of cases) {
      it(`${label}: the message names the problem and is short`, async () => {
        const error = await errorOf(method, params);
        expect(error.code, error.message.slice(0, 300)).to.equal(code);
        expect(error.message.length, error.message.slice(0, 300)).to.be.below(MAX_MESSAGE);
        expect(error.message).to.match(message);
      });
    }
  });

  it('state files: a long address in a path is clipped', () => {
    expect(() => decodeStateFile({ alloc: { [`0x${'b'.repeat(10_000)}`]: {} } })).to.throw(/^state\.alloc\.0xb{62}… \(10002 bytes\): not a 20-byte address$/);
  });
});
