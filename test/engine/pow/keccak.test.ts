import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { keccak_512 } from '@noble/hashes/sha3.js';
import { buildCache } from '../../../src/engine/pow/cache.js';
import { keccak512InPlace } from '../../../src/engine/pow/keccak.js';
import { keccakImplementation } from '../../../src/engine/util/keccakF1600.js';
import { bytesToWords, wordsToBytes } from '../../../src/engine/pow/words.js';
import { cacheBytes, hex } from './helpers.js';

describe('pow/keccak', () => {
  it('uses the WebAssembly permutation on Node', () => {
    expect(keccakImplementation).to.equal('wasm');
  });

  it('hashes 64-byte items like keccak_512, in place at any offset', () => {
    for (let i = 0; i < 200; i++) {
      const input = new Uint8Array(randomBytes(64));
      const buf = new Uint32Array(48);
      buf.set(bytesToWords(input), 16);
      keccak512InPlace(buf, 16);
      expect(hex(wordsToBytes(buf.subarray(16, 32)))).to.equal(hex(keccak_512(input)));
      expect(buf.subarray(0, 16).every((w) => w === 0) && buf.subarray(32).every((w) => w === 0)).to.equal(true);
    }
  });

  it('falls back to the JS permutation without WebAssembly (node --jitless), with the same results', () => {
    const cacheModule = fileURLToPath(new URL('../../../src/engine/pow/cache.js', import.meta.url));
    const keccakModule = fileURLToPath(new URL('../../../src/engine/util/keccakF1600.js', import.meta.url));
    const script = `
      const { buildCache } = await import(${JSON.stringify(cacheModule)})
      const { keccakImplementation } = await import(${JSON.stringify(keccakModule)})
      const cache = buildCache(4096, new Uint8Array(32).fill(7))
      console.log(keccakImplementation + ' ' + Buffer.from(cache.buffer).toString('hex'))`;
    const out = execFileSync(process.execPath, ['--jitless', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'], // keep V8's "disabling --expose_wasm" notice out of the test output
    });
    const [impl, cacheHex] = out.trim().split(' ');
    expect(impl).to.equal('js');
    expect(cacheHex).to.equal(hex(cacheBytes(buildCache(4096, new Uint8Array(32).fill(7)))));
  });
});
