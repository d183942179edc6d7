import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from 'ethers';
import { readChainFile } from '../../src/startup/chainFile.js';
import { runCli } from '../helpers/cli.js';
import { newNode, send } from '../helpers/chain.js';
import { SAME_GENESIS, TO, exportToFile, hexNumber, importedNode, tempDir } from './chain.js';

/** What the importer adds to a state root mismatch: what it usually means for a file chain-sim exported. */
const STATE_ROOT_HINT =
  " (running the block on its parent's state gave another state than the block records: the chain it came from changed state outside any block, e.g. with test controls such as setBalance, setCode, setStorageAt or loadState, which a chain file cannot carry; `chain-sim export` warns about such chains)";

type Values = Uint8Array | Values[];

/** The blocks of a chain file as RLP values (headers are item 0, transactions item 1). */
function blocksOf(file: string): Values[][] {
  const blocks: Values[][] = [];
  let rest: Uint8Array = readFileSync(file);
  while (rest.length > 0) {
    const { data, remainder } = RLP.decode(rest, true) as unknown as { data: Values[]; remainder: Uint8Array };
    blocks.push(data);
    rest = remainder;
  }
  return blocks;
}

function writeBlocks(file: string, blocks: Values[][]): string {
  writeFileSync(file, Buffer.concat(blocks.map((b) => RLP.encode(b as never))));
  return file;
}

const header = (block: Values[]) => block[0] as Uint8Array[];
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
/** Header field positions. */
const STATE_ROOT = 3;
const TX_ROOT = 4;
const RECEIPTS_ROOT = 5;
const GAS_LIMIT = 9;
const GAS_USED = 10;
const TIMESTAMP = 11;
const BASE_FEE = 15;

function flipLastByte(bytes: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[copy.length - 1]! ^= 0x01;
  return copy;
}

const toBytes = (n: bigint) =>
  n === 0n ? new Uint8Array() : Uint8Array.from(Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex'));
const toBig = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(hex(bytes)));

/** Start a node importing `file`; the error it fails with. */
async function importError(file: string): Promise<string> {
  const error = await importedNode(file)
    .provider.ready()
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(error, 'import should fail').to.be.instanceOf(Error);
  return error!.message;
}

describe('--import of bad chain files', function () {
  this.timeout(120_000);
  let dir: string;
  let good: string;

  before(async () => {
    dir = tempDir();
    const { rpc } = newNode(SAME_GENESIS);
    for (let nonce = 0; nonce < 4; nonce++) await send(rpc, 0, { to: TO, value: 1n, nonce, gasLimit: 21000 });
    good = await exportToFile(rpc, dir);
  });

  it('a missing file', async () => {
    const missing = join(dir, 'missing.rlp');
    expect(await importError(missing)).to.equal(`import ${missing}: no such file`);
  });

  it('a truncated file: the last block is cut short', async () => {
    const bytes = readFileSync(good);
    const file = join(dir, 'truncated.rlp');
    writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    const blocks = blocksOf(good);
    const lastOffset = bytes.length - RLP.encode(blocks[3] as never).length;
    expect(await importError(file)).to.equal(
      `import ${file}: truncated: the block at byte ${lastOffset} needs ${bytes.length - lastOffset} bytes, only ${bytes.length - lastOffset - 10} remain`,
    );
  });

  it('bytes that are not RLP blocks', async () => {
    const file = join(dir, 'garbage.rlp');
    writeFileSync(file, Buffer.from('hello world'));
    expect(await importError(file)).to.equal(`import ${file}: byte 0: expected an RLP list (a block), found 0x68`);
    const notBlock = join(dir, 'not-a-block.rlp');
    writeFileSync(notBlock, RLP.encode([[Uint8Array.of(1)], []]));
    expect(await importError(notBlock)).to.match(new RegExp(`^import ${notBlock}: block at byte 0: not a valid block: `));
  });

  it('a tampered state root, receipts root or gas used: the named mismatch with both values', async () => {
    const blocks = blocksOf(good);
    const wantRoot = flipLastByte(header(blocks[1]!)[STATE_ROOT]!);
    header(blocks[1]!)[STATE_ROOT] = wantRoot;
    const file = writeBlocks(join(dir, 'state-root.rlp'), blocks);
    const haveRoot = hex(blocksOf(good)[1]![0]![STATE_ROOT] as Uint8Array);
    expect(await importError(file)).to.equal(`import ${file}: block 2: state root mismatch: have ${haveRoot}, want ${hex(wantRoot)}${STATE_ROOT_HINT}`);

    const receipts = blocksOf(good);
    const wantReceipts = flipLastByte(header(receipts[2]!)[RECEIPTS_ROOT]!);
    header(receipts[2]!)[RECEIPTS_ROOT] = wantReceipts;
    const receiptsFile = writeBlocks(join(dir, 'receipts.rlp'), receipts);
    expect(await importError(receiptsFile)).to.match(new RegExp(`block 3: receipts root mismatch: have 0x[0-9a-f]{64}, want ${hex(wantReceipts)}$`));

    const gas = blocksOf(good);
    const used = toBig(header(gas[0]!)[GAS_USED]!);
    header(gas[0]!)[GAS_USED] = toBytes(used + 1n);
    const gasFile = writeBlocks(join(dir, 'gas.rlp'), gas);
    expect(await importError(gasFile)).to.equal(`import ${gasFile}: block 1: gas used mismatch: have ${used}, want ${used + 1n}`);
  });

  it('a tampered transaction: the transactions root no longer matches; with the root fixed, execution refuses it', async () => {
    const blocks = blocksOf(good);
    const txs = blocks[1]![1] as Uint8Array[];
    // A 1559 transaction is 0x02 ‖ rlp([chainId, nonce, tip, maxFee, gas, to, value, ...]): change the value.
    const fields = RLP.decode(txs[0]!.subarray(1)) as Uint8Array[];
    fields[6] = toBytes(toBig(fields[6]!) + 1n);
    txs[0] = Uint8Array.from([2, ...RLP.encode(fields)]);
    const file = writeBlocks(join(dir, 'tx.rlp'), blocks);
    expect(await importError(file)).to.match(
      new RegExp(`^import ${file}: block 2: transactions root mismatch: have 0x[0-9a-f]{64}, want ${hex(header(blocks[1]!)[TX_ROOT]!)}$`),
    );

    // The root of a trie of one transaction: keccak of rlp([[rlp(0)-path, tx]]) is awkward to rebuild here; let the error tell us.
    const message = await importError(file);
    const have = /have (0x[0-9a-f]{64})/.exec(message)![1]!;
    header(blocks[1]!)[TX_ROOT] = Uint8Array.from(Buffer.from(have.slice(2), 'hex'));
    const fixed = writeBlocks(join(dir, 'tx-fixed.rlp'), blocks);
    // The changed value changes the signed message: the signature recovers some other, empty account.
    expect(await importError(fixed)).to.match(
      new RegExp(`^import ${fixed}: block 2: transaction 0x[0-9a-f]{64}: sender doesn't have enough funds to send tx\\. .* only has: 0$`),
    );
  });

  it('blocks that do not fit their parent: timestamp, gas limit, base fee, parent hash, a gap', async () => {
    const cases: Array<[string, (blocks: Values[][]) => void, RegExp]> = [
      ['timestamp', (b) => (header(b[1]!)[TIMESTAMP] = header(b[0]!)[TIMESTAMP]!), /block 2: timestamp (\d+) is not after the parent's timestamp \1$/],
      [
        'gas-limit',
        (b) => (header(b[0]!)[GAS_LIMIT] = toBytes(toBig(header(b[0]!)[GAS_LIMIT]!) * 2n)),
        /block 1: invalid gas limit: have 60000000, want 30000000 \+-= 29295$/,
      ],
      [
        'base-fee',
        (b) => (header(b[0]!)[BASE_FEE] = toBytes(toBig(header(b[0]!)[BASE_FEE]!) + 1n)),
        /block 1: invalid baseFee: have \d+, want \d+, parentBaseFee 1000000000, parentGasUsed 0$/,
      ],
      [
        'parent-hash',
        (b) => (header(b[1]!)[0] = flipLastByte(header(b[1]!)[0]!)),
        /block 2: parent hash 0x[0-9a-f]{64} is not the hash of block 1 0x[0-9a-f]{64}$/,
      ],
      ['gap', (b) => b.splice(1, 1), /block 3: unknown ancestor: the chain's head is block 1$/],
    ];
    for (const [name, tamper, expected] of cases) {
      const blocks = blocksOf(good);
      tamper(blocks);
      const file = writeBlocks(join(dir, `${name}.rlp`), blocks);
      expect(await importError(file), name).to.match(expected);
    }
  });

  it('the chain stays at the last good block, with its state', async () => {
    const blocks = blocksOf(good);
    header(blocks[2]!)[STATE_ROOT] = flipLastByte(header(blocks[2]!)[STATE_ROOT]!);
    const file = writeBlocks(join(dir, 'stops.rlp'), blocks);
    const { provider, rpc } = newNode(SAME_GENESIS);
    const { chain } = await provider.ready();
    const error = await chain.importBlocks(readChainFile(file)).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/^block 3: state root mismatch/);
    expect(await rpc('eth_blockNumber')).to.equal('0x2');
    const head = await rpc<{ stateRoot: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(hex(await chain.stateRoot())).to.equal(head.stateRoot);
    expect(head.hash).to.equal(keccak256(RLP.encode(blocks[1]![0] as never)));
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x2');
    // And it continues from there.
    await send(rpc, 0, { to: TO, value: 1n, nonce: 2, gasLimit: 21000 });
    expect(await rpc('eth_blockNumber')).to.equal(hexNumber(3));
  });

  it('CLI: one line on stderr naming the file and the block, exit code 1, nothing served', async () => {
    // The CLI runs on the real clock: a fixture with a timestamp gives both the same genesis.
    const fixture = join(dir, 'genesis-fixture.json');
    writeFileSync(fixture, JSON.stringify({ hardfork: 'prague', timestamp: '0x6b49d200', alloc: {} }));
    const { rpc } = newNode({ quiet: true, fixtures: [fixture] });
    for (let nonce = 0; nonce < 2; nonce++) await send(rpc, 0, { to: TO, value: 1n, nonce, gasLimit: 21000 });
    const blocks = blocksOf(await exportToFile(rpc, dir, 'cli-source.rlp'));
    const wantRoot = flipLastByte(header(blocks[1]!)[STATE_ROOT]!);
    header(blocks[1]!)[STATE_ROOT] = wantRoot;
    const file = writeBlocks(join(dir, 'cli.rlp'), blocks);
    const result = await runCli(['--fixture', fixture, '--import', file, '--port', '0']);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.not.match(/Listening/);
    expect(result.stderr.trim().split('\n')).to.deep.equal([
      `chain-sim: import ${file}: block 2: state root mismatch: have ${hex(blocksOf(join(dir, 'cli-source.rlp'))[1]![0]![STATE_ROOT] as Uint8Array)}, want ${hex(wantRoot)}${STATE_ROOT_HINT}`,
    ]);
    const missing = await runCli(['--import', join(dir, 'nope.rlp'), '--port', '0']);
    expect(missing.code).to.equal(1);
    expect(missing.stderr.trim()).to.equal(`chain-sim: import ${join(dir, 'nope.rlp')}: no such file`);
  });
});
