/**
 * --state FILE through the provider: what survives a restart, explicit options over saved
 * settings, owned keys, periodic saves, atomic writes, and clear errors for corrupt files.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex, createAddressFromPrivateKey, hexToBytes } from '@ethereumjs/util';
import type { ChainSimOptions } from '../../src/index.js';
import { startNode } from '../../src/startup/node.js';
import { StatePersistenceError, readStateFile, writeStateFile } from '../../src/persistence/persistence.js';
import { removeStaleTempFiles } from '../../src/persistence/atomicFile.js';
import { decodeStateFile } from '../../src/persistence/stateFile.js';
import { ADDRESSES, type Rpc, deploy, newNode } from '../helpers/chain.js';

const CONTRACT = '0x00000000000000000000000000000000000c0de0';
const EXTRA_KEY = `0x${'42'.repeat(32)}`;

async function run(options: ChainSimOptions, work: (rpc: Rpc) => Promise<void>): Promise<void> {
  const { provider, rpc } = newNode(options);
  try {
    await work(rpc);
  } finally {
    await provider.disconnect();
  }
}

describe('persistence: --state through the provider', function () {
  this.timeout(30_000);

  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-state-'));
    file = join(dir, 'state.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('starts fresh without a file and writes one on disconnect', async () => {
    await run({ stateFile: file }, async (rpc) => {
      expect(await rpc('eth_blockNumber')).to.equal('0x0');
    });
    const saved = decodeStateFile(JSON.parse(await readFile(file, 'utf8')));
    expect(saved.alloc.get(ADDRESSES[0]!)?.balance).to.equal(10_000n * 10n ** 18n);
    expect(saved.chainId).to.equal(1337n);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('restores accounts, code, storage, chain settings, blocks, receipts, logs and the clock offset', async () => {
    let before: { root: string; timestamp: bigint; balance: string; nonce: string; number: string; hash: string; tx: string } | undefined;
    await run({ stateFile: file, chainId: 777, gasLimit: 12_345_678, hardfork: 'cancun' }, async (rpc) => {
      const tx = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1234' }]);
      await rpc('hardhat_setCode', [CONTRACT, '0x6001600055']);
      await rpc('hardhat_setStorageAt', [CONTRACT, '0x2', `0x${'00'.repeat(31)}07`]);
      await rpc('evm_increaseTime', [100_000]);
      await rpc('evm_mine');
      const head = await rpc<{ stateRoot: string; timestamp: string; number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
      before = {
        number: head.number,
        hash: head.hash,
        tx,
        root: head.stateRoot,
        timestamp: BigInt(head.timestamp),
        balance: await rpc('eth_getBalance', [ADDRESSES[1], 'latest']),
        nonce: await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest']),
      };
    });
    // Nothing but the file given: the saved chain id, gas limit and hardfork apply.
    const { provider, rpc } = newNode({ stateFile: file, hardfork: undefined });
    try {
      const node = await provider.ready();
      expect(await rpc('eth_chainId')).to.equal('0x309');
      expect(node.options.gasLimit).to.equal(12_345_678n);
      expect(node.chain.common.hardfork()).to.equal('cancun');
      expect(bytesToHex(await node.chain.stateRoot())).to.equal(before!.root);
      expect(await rpc('eth_getBalance', [ADDRESSES[1], 'latest'])).to.equal(before!.balance);
      expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal(before!.nonce);
      expect(await rpc('eth_getCode', [CONTRACT, 'latest'])).to.equal('0x6001600055');
      expect(await rpc('eth_getStorageAt', [CONTRACT, '0x2', 'latest'])).to.equal(`0x${'00'.repeat(31)}07`);
      // The saved blocks are served again: same head, receipts, transactions; past states are not kept.
      const head = await rpc<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
      expect(head).to.deep.include({ number: before!.number, hash: before!.hash });
      const receipt = await rpc<{ blockNumber: string; status: string; from: string }>('eth_getTransactionReceipt', [before!.tx]);
      expect(receipt).to.deep.include({ blockNumber: '0x1', status: '0x1', from: ADDRESSES[0] });
      expect(await rpc<{ hash: string }>('eth_getTransactionByHash', [before!.tx])).to.deep.include({ hash: before!.tx });
      try {
        await rpc('eth_getBalance', [ADDRESSES[1], '0x1']);
        expect.fail('the state of a block before the head is not kept');
      } catch (error) {
        expect((error as { code: number; message: string }).message).to.match(/state of block 1 is not available/);
        expect((error as { code: number }).code).to.equal(-32000);
      }
      await rpc('evm_mine');
      const next = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
      expect(BigInt(next.timestamp) > before!.timestamp, 'after the saved head').to.equal(true);
      expect(BigInt(next.timestamp) >= BigInt(Math.floor(Date.now() / 1000)) + 99_000n, 'clock offset kept').to.equal(true);
      // A new signed transaction continues from the saved nonce.
      await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
      expect(BigInt(await rpc<string>('eth_getTransactionCount', [ADDRESSES[0], 'latest']))).to.equal(BigInt(before!.nonce) + 1n);
    } finally {
      await provider.disconnect();
    }
  });

  it('serves logs of saved blocks after a restart, and new blocks continue the saved chain', async () => {
    let token = '';
    await run({ stateFile: file }, async (rpc) => {
      token = await deploy(rpc, 'Token', ['T', 'T', 5n]);
    });
    await run({ stateFile: file }, async (rpc) => {
      const logs = await rpc<Array<{ address: string; blockNumber: string }>>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: token }]);
      expect(logs).to.have.length(1);
      expect(logs[0]).to.deep.include({ address: token, blockNumber: '0x1' });
      const parent = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x1', false]);
      await rpc('evm_mine');
      expect(await rpc<{ parentHash: string }>('eth_getBlockByNumber', ['0x2', false])).to.deep.include({ parentHash: parent.hash });
    });
  });

  it('explicit options win over the saved settings', async () => {
    await run({ stateFile: file, chainId: 777 }, async () => {});
    await run({ stateFile: file, chainId: 5 }, async (rpc) => {
      expect(await rpc('eth_chainId')).to.equal('0x5');
      expect(await rpc('eth_getBalance', [ADDRESSES[0], 'latest'])).to.equal('0x21e19e0c9bab2400000');
    });
  });

  it('makes the saved private keys owned accounts, and saves them again', async () => {
    const extra = createAddressFromPrivateKey(hexToBytes(EXTRA_KEY as `0x${string}`)).toString();
    await writeFile(file, JSON.stringify({ privateKeys: [EXTRA_KEY], alloc: { [extra]: { balance: '0xde0b6b3a7640000' } } }));
    await run({ stateFile: file }, async (rpc) => {
      expect(await rpc<string[]>('eth_accounts')).to.include(extra);
      await rpc('eth_sendTransaction', [{ from: extra, to: ADDRESSES[0], value: '0x1' }]);
    });
    const saved = await readStateFile(file);
    expect(saved!.privateKeys!.map((k) => bytesToHex(k))).to.include(EXTRA_KEY);
  });

  it('saves every --state-interval seconds while running', async () => {
    const { provider, rpc } = newNode({ stateFile: file, stateInterval: 0.05 });
    try {
      await rpc('hardhat_setBalance', [CONTRACT, '0x7']);
      let balance: bigint | undefined;
      for (let i = 0; i < 100 && balance !== 7n; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        balance = (await readStateFile(file).catch(() => undefined))?.alloc.get(CONTRACT)?.balance;
      }
      expect(balance).to.equal(7n);
    } finally {
      await provider.disconnect();
    }
  });

  it('refuses --state-interval without --state', () => {
    return startNode({ stateInterval: 1 }).then(
      () => expect.fail('expected an option error'),
      (error: Error) => expect(error.message).to.equal('invalid value for state-interval: needs a state file (--state FILE)'),
    );
  });

  for (const [label, content] of [
    ['an empty file', ''],
    ['a truncated file', '{"chainId":"0x539","alloc":{"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266":{"balance":"0x21e1'],
    ['binary garbage', '\u0000\u00ff\u0001garbage'],
    ['JSON that is not a state', '[1,2,3]'],
    ['a bad address', '{"alloc":{"0xzz":{}}}'],
    ['a bad balance', '{"alloc":{"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266":{"balance":"lots"}}}'],
  ] as const) {
    it(`refuses ${label} with a one-line error naming the file`, async () => {
      await writeFile(file, content);
      let caught: unknown;
      try {
        await startNode({ quiet: true, stateFile: file });
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(StatePersistenceError);
      const message = (caught as Error).message;
      expect(message.startsWith(`state file ${file}: `), message).to.equal(true);
      expect(message).to.not.contain('\n');
      // The file is left as it was for the user to inspect.
      expect(await readFile(file, 'utf8')).to.equal(content);
    });
  }

  it('writes atomically: the old file stays whole until the new one replaces it, and stale temporary files are removed', async () => {
    const state = (balance: bigint) => ({
      header: {},
      accounts: [{ kind: 'account', address: CONTRACT, balance, nonce: 0n, code: new Uint8Array() } as const],
      segments: [],
    });
    await writeStateFile(file, state(1n));
    // A temporary file left by a killed process (pid 2^31-2 is not running).
    const stale = join(dir, `.state.json.${2 ** 31 - 2}.tmp`);
    await writeFile(stale, '{"half":');
    await Promise.all([writeStateFile(file, state(2n)), readStateFile(file).then((s) => expect(s!.alloc.get(CONTRACT)!.balance).to.be.oneOf([1n, 2n]))]);
    await removeStaleTempFiles(file);
    expect(await readdir(dir)).to.deep.equal(['state.json']);
    expect((await readStateFile(file))!.alloc.get(CONTRACT)!.balance).to.equal(2n);
  });
});
