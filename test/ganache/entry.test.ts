/**
 * chain-sim/ganache: the same calls made to Ganache 7 (the devDependency) and to chain-sim's
 * Ganache entry point give the same answers where Ganache's forms differ from Hardhat's.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import ganache, { GANACHE_DETERMINISTIC_MNEMONIC, mapGanacheOptions } from '../../src/ganache/index.js';
import { errorStringPayload, revertingInitCode } from '../helpers/rpc.js';

interface AnyProvider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  disconnect(): Promise<void>;
  getInitialAccounts(): Record<string, { secretKey: string; balance: bigint; unlocked: boolean }>;
}

const realGanache = createRequire(import.meta.url)('ganache') as { provider(options: object): AnyProvider };

async function caught(p: Promise<unknown>): Promise<{ message: string; code: unknown; data: unknown }> {
  try {
    await p;
  } catch (error) {
    const e = error as { message: string; code: unknown; data: unknown };
    return { message: e.message, code: e.code, data: e.data };
  }
  throw new Error('expected an error');
}

describe('chain-sim/ganache answers as Ganache 7 does', function () {
  this.timeout(60_000);
  const options = { logging: { quiet: true }, wallet: { deterministic: true, totalAccounts: 3 }, chain: { vmErrorsOnRPCResponse: true } };

  for (const [name, make] of [
    ['ganache 7', () => realGanache.provider(options)],
    ['chain-sim/ganache', () => ganache.provider(options)],
  ] as const) {
    describe(name, () => {
      let provider: AnyProvider;
      const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params });
      beforeEach(() => {
        provider = make();
      });
      afterEach(() => provider.disconnect());

      it('deterministic accounts with 1000 ether, getInitialAccounts as Ganache shapes it', async () => {
        const accounts = (await rpc('eth_accounts')) as string[];
        expect(accounts).to.have.length(3);
        expect(accounts[0]).to.equal('0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1');
        expect(await rpc('eth_getBalance', [accounts[0], 'latest'])).to.equal('0x3635c9adc5dea00000');
        const initial = provider.getInitialAccounts();
        expect(Object.keys(initial)).to.deep.equal(accounts);
        expect(initial[accounts[0]!]).to.deep.equal({
          secretKey: '0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d',
          balance: 1000n * 10n ** 18n,
          unlocked: true,
        });
      });

      it('net_version is not the chain id; eth_gasPrice is 2 gwei; the client version names Ganache', async () => {
        expect(await rpc('eth_chainId')).to.equal('0x539');
        const version = (await rpc('net_version')) as string;
        expect(version).to.match(/^\d+$/);
        expect(Number(version)).to.be.closeTo(Date.now(), 120_000);
        expect(await rpc('eth_gasPrice')).to.equal('0x77359400');
        expect(await rpc('web3_clientVersion')).to.match(/^Ganache\/v7\.9\.2\/EthereumJS TestRPC\//);
      });

      it("evm_snapshot, evm_revert, evm_mine, evm_increaseTime and evm_setTime answer in Ganache's forms", async () => {
        expect(await rpc('evm_snapshot')).to.equal('0x1');
        expect(await rpc('evm_mine')).to.equal('0x0');
        expect(await rpc('evm_mine', [{ blocks: 2 }])).to.equal('0x0');
        expect(await rpc('eth_blockNumber')).to.equal('0x3');
        // The clock's whole offset, as a JSON number (blocks mined in one second may have moved it already).
        const offset1 = (await rpc('evm_increaseTime', [10])) as number;
        expect(offset1).to.be.a('number').at.least(10);
        expect(await rpc('evm_increaseTime', ['0x10'])).to.equal(offset1 + 16);
        const offset = await rpc('evm_setTime', [Date.now() + 100_000]);
        expect(offset).to.be.a('number').within(98, 100);
        expect(await rpc('evm_revert', ['0x1'])).to.equal(true);
        expect(await rpc('evm_revert', ['0x1'])).to.equal(false);
        expect(await rpc('eth_blockNumber')).to.equal('0x0');
      });

      it('vmErrorsOnRPCResponse: a failed send rejects with the reason, the hash and the transaction stays mined', async () => {
        const [from] = (await rpc('eth_accounts')) as string[];
        const data = revertingInitCode(errorStringPayload('not allowed'));
        const error = await caught(rpc('eth_sendTransaction', [{ from, data, gas: '0x100000' }]));
        expect(error.message).to.equal('VM Exception while processing transaction: revert not allowed');
        expect(error.code).to.equal(-32000);
        const details = error.data as Record<string, unknown>;
        expect(Object.keys(details).sort()).to.deep.equal(['hash', 'message', 'programCounter', 'reason', 'result']);
        expect(details).to.include({ reason: 'not allowed', message: 'revert' });
        expect(details.result).to.equal(details.hash);
        const receipt = (await rpc('eth_getTransactionReceipt', [details.hash])) as { status: string };
        expect(receipt.status).to.equal('0x0');

        const bare = await caught(rpc('eth_sendTransaction', [{ from, data: '0x60006000fd', gas: '0x100000' }]));
        expect(bare.message).to.equal('VM Exception while processing transaction: revert');
        expect(bare.data).to.include({ reason: null, programCounter: 5, message: 'revert' });
        const invalid = await caught(rpc('eth_sendTransaction', [{ from, data: '0xfe', gas: '0x30000' }]));
        expect(invalid.message).to.equal('VM Exception while processing transaction: invalid opcode');
        expect(invalid.data).to.include({ reason: null, programCounter: 0, message: 'invalid opcode' });
        const outOfGas = await caught(rpc('eth_sendTransaction', [{ from, data: '0x5b600056', gas: '0x30000' }]));
        expect(outOfGas.message).to.equal('VM Exception while processing transaction: out of gas');
        expect(outOfGas.data).to.include({ reason: null, programCounter: 3, message: 'out of gas' });
      });

      it("eth_call and eth_estimateGas that fail answer Ganache's error: -32000, VM Exception, the revert data", async () => {
        const [from] = (await rpc('eth_accounts')) as string[];
        const payload = errorStringPayload('not allowed');
        const panic = `0x4e487b71${'11'.padStart(64, '0')}`;
        const cases: Array<[string, string, string, number]> = [
          [revertingInitCode(payload), 'revert not allowed', payload, -1],
          ['0x60006000fd', 'revert', '0x', 5],
          [revertingInitCode(panic), 'revert', panic, -1],
          ['0xfe', 'invalid opcode', '0x', 0],
          ['0x5b600056', 'out of gas', '0x', 3], // JUMPDEST PUSH1 0 JUMP: loops until the gas runs out
        ];
        for (const [data, words, output, counter] of cases) {
          const call = await caught(rpc('eth_call', [{ from, data, gas: '0x30000' }, 'latest']));
          expect(call, `eth_call ${words}`).to.deep.equal({ code: -32000, message: `VM Exception while processing transaction: ${words}`, data: output });
          const estimate = await caught(rpc('eth_estimateGas', [{ from, data, gas: '0x30000' }]));
          expect([estimate.code, estimate.message], `eth_estimateGas ${words}`).to.deep.equal([-32000, `VM Exception while processing transaction: ${words}`]);
          const [kind, reason] = words.startsWith('revert') ? ['revert', words.slice(7) || null] : [words, null];
          expect(estimate.data).to.deep.include({ hash: null, result: output, reason, message: kind });
          const { programCounter } = estimate.data as { programCounter: number };
          expect(programCounter, `eth_estimateGas ${words}`).to.equal(counter === -1 ? programCounter : counter);
        }
      });

      it('after disconnect() a request is refused, as Ganache refuses it', async () => {
        expect(await rpc('eth_chainId')).to.equal('0x539');
        await provider.disconnect();
        expect((await caught(rpc('eth_chainId'))).message).to.equal('Cannot process request, Ganache is disconnected.');
        // afterEach disconnects a fresh one (a second disconnect() crashes Ganache). It answers first:
        // Ganache disconnected before it finished starting throws from its start-up, uncaught.
        provider = make();
        expect(await rpc('eth_chainId')).to.equal('0x539');
      });

      it('personal accounts: new, locked until unlocked, listed, signed with a passphrase, removed', async () => {
        const [first, second] = (await rpc('eth_accounts')) as string[];
        const created = (await rpc('personal_newAccount', ['pw'])) as string;
        expect(await rpc('personal_listAccounts')).to.deep.equal([...((await rpc('eth_accounts')) as string[])]);
        expect(await rpc('eth_accounts')).to.include(created);
        expect((await caught(rpc('eth_sendTransaction', [{ from: created, to: second, value: '0x0' }]))).message).to.equal(
          'authentication needed: passphrase or unlock',
        );
        expect((await caught(rpc('personal_unlockAccount', [created, 'wrong']))).message).to.equal('could not decrypt key with given passphrase');
        expect(await rpc('personal_unlockAccount', [created, 'pw', 0])).to.equal(true);
        expect(await rpc('personal_lockAccount', [created])).to.equal(true);
        expect(await rpc('personal_lockAccount', ['0x00000000000000000000000000000000000000bb'])).to.equal(false);
        expect((await caught(rpc('personal_unlockAccount', ['0x00000000000000000000000000000000000000bb', 'x']))).message).to.equal(
          'no key for given address or file',
        );
        const hash = await rpc('personal_sendTransaction', [{ from: first, to: created, value: '0x1' }, '']);
        expect(hash).to.match(/^0x[0-9a-f]{64}$/);
        expect(await rpc('eth_getBalance', [created, 'latest'])).to.equal('0x1');
        const raw = await rpc('personal_signTransaction', [{ from: first, to: second, value: '0x1', gas: '0x5208' }, '']);
        expect(raw).to.match(/^0x02f8/);
        expect(await rpc('personal_importRawKey', [`0x${'11'.repeat(32)}`, 'p'])).to.equal('0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a');
        expect(await rpc('evm_addAccount', ['0x00000000000000000000000000000000000000aa', 'pp'])).to.equal(true);
        expect(await rpc('evm_addAccount', ['0x00000000000000000000000000000000000000aa', 'pp'])).to.equal(false);
        expect((await caught(rpc('evm_removeAccount', ['0x00000000000000000000000000000000000000aa', 'bad']))).message).to.equal(
          'could not decrypt key with given passphrase',
        );
        expect(await rpc('evm_removeAccount', ['0x00000000000000000000000000000000000000aa', 'pp'])).to.equal(true);
        expect(await rpc('evm_removeAccount', ['0x00000000000000000000000000000000000000aa', 'pp'])).to.equal(false);
        expect(await rpc('evm_removeAccount', [second, ''])).to.equal(true);
        expect(await rpc('eth_accounts')).to.not.include(second);
      });

      it('an unlocked keyless account (evm_addAccount) sends without a signature; a timed unlock expires', async () => {
        const [first] = (await rpc('eth_accounts')) as string[];
        const keyless = '0x00000000000000000000000000000000000000aa';
        await rpc('evm_addAccount', [keyless, 'pp']);
        await rpc('eth_sendTransaction', [{ from: first, to: keyless, value: '0xde0b6b3a7640000' }]);
        expect(await rpc('personal_unlockAccount', [keyless, 'pp', 1])).to.equal(true);
        const hash = await rpc('eth_sendTransaction', [{ from: keyless, to: first, value: '0x1' }]);
        const tx = (await rpc('eth_getTransactionByHash', [hash])) as { from: string };
        expect(tx.from).to.equal(keyless);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect((await caught(rpc('eth_sendTransaction', [{ from: keyless, to: first, value: '0x1' }]))).message).to.equal(
          'authentication needed: passphrase or unlock',
        );
      });

      it('miner_setEtherbase, miner_setGasPrice, miner_setExtra and rpc_modules', async () => {
        const [first] = (await rpc('eth_accounts')) as string[];
        expect(await rpc('miner_setEtherbase', [first])).to.equal(true);
        expect(await rpc('eth_coinbase')).to.equal(first);
        expect(await rpc('miner_setGasPrice', ['0x1234'])).to.equal(true);
        expect(await rpc('eth_gasPrice')).to.equal('0x1234');
        expect(await rpc('miner_setExtra', ['0xc0ffee'])).to.equal(true);
        await rpc('evm_mine');
        const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { extraData: string; miner: string };
        expect([block.extraData, block.miner]).to.deep.equal(['0xc0ffee', first]);
        expect((await caught(rpc('miner_setExtra', [`0x${'12'.repeat(33)}`]))).message).to.match(/exceeds max length.*33 > 32/);
        const modules = (await rpc('rpc_modules')) as Record<string, string>;
        for (const namespace of ['eth', 'net', 'rpc', 'web3', 'evm', 'personal']) expect(modules[namespace]).to.equal('1.0');
      });
    });
  }
});

describe('chain-sim/ganache options', () => {
  it('maps Ganache 7 nested names and ganache-core 2 legacy names to the same chain-sim options', () => {
    const nested = mapGanacheOptions({
      wallet: { mnemonic: GANACHE_DETERMINISTIC_MNEMONIC, totalAccounts: 4, defaultBalance: 50, hdPath: "m/44'/60'/0'/0/", lock: false },
      chain: { chainId: 5, networkId: 77, hardfork: 'merge', time: new Date('2020-01-01T00:00:00Z'), vmErrorsOnRPCResponse: true },
      miner: { blockGasLimit: '0x1c9c380', defaultGasPrice: 7, blockTime: 0 },
      logging: { quiet: true },
    }).options;
    const legacy = mapGanacheOptions({
      mnemonic: GANACHE_DETERMINISTIC_MNEMONIC,
      total_accounts: 4,
      default_balance_ether: 50,
      hd_path: "m/44'/60'/0'/0/",
      chainId: 5,
      network_id: 77,
      hardfork: 'merge',
      time: '2020-01-01T00:00:00Z',
      vmErrorsOnRPCResponse: true,
      locked: false,
      ws: true,
      gasLimit: 30_000_000,
      gasPrice: '7',
      blockTime: 0,
      quiet: true,
    }).options;
    const expected = {
      mnemonic: GANACHE_DETERMINISTIC_MNEMONIC,
      accounts: 4n,
      balance: '50',
      derivationPath: "m/44'/60'/0'/0",
      chainId: 5n,
      networkId: 77n,
      hardfork: 'paris',
      timestamp: 1577836800n,
      vmErrorsOnRPCResponse: true,
      gasLimit: 30_000_000n,
      gasPrice: 7n,
      blockTime: 0,
      quiet: true,
      compat: 'ganache',
    };
    expect(nested).to.deep.equal(expected);
    expect(legacy).to.deep.equal(expected);
  });

  it('refuses what it cannot honour, naming the option', () => {
    const cases: Array<[object, RegExp]> = [
      [{ wallet: { seed: 'abc' } }, /wallet\.seed: not supported/],
      [{ seed: 'abc' }, /seed: not supported/],
      [{ wallet: { lock: true } }, /wallet\.lock: not supported/],
      [{ secure: true }, /secure: not supported/],
      [{ locked: true }, /locked: not supported by chain-sim: accounts present at start are always unlocked/],
      [{ ws: false }, /ws: not supported by chain-sim: WebSocket is always served/],
      [{ fork: { request: async () => null } }, /fork: not supported by chain-sim: forking from a provider object/],
      [{ fork: { send: () => null } }, /fork: not supported by chain-sim: forking from a provider object/],
      [{ chain: { allowUnlimitedInitCodeSize: true } }, /chain\.allowUnlimitedInitCodeSize: not supported/],
      [{ miner: { callGasLimit: '0x1' } }, /miner\.callGasLimit: must be between 21000/],
      [{ wallet: { defaultBalance: -1 } }, /wallet\.defaultBalance: expected an amount of ether/],
      [{ chain: { hardfork: 'frontier2' } }, /chain\.hardfork: unknown hardfork "frontier2"/],
      [{ miner: { defaultTransactionGasLimit: 90000 } }, /miner\.defaultTransactionGasLimit: not supported/],
      [{ logging: { debug: true } }, /logging\.debug: not supported/],
      [{ database: { db: {} } }, /database\.db: not supported/],
      [{ server: { ws: false } }, /server\.ws: not supported/],
      [{ fork: { network: 'mainnet' } }, /fork\.network: not supported/],
      [{ chain: { chainID: 5 } }, /unknown Ganache option 'chain\.chainID': did you mean 'chain\.chainId'\?/],
      [{ nmemonic: 'x' }, /unknown Ganache option 'nmemonic': did you mean 'mnemonic'\?/],
      [{ wallet: { totalAccounts: 2 }, total_accounts: 3 }, /total_accounts: conflicts with wallet\.totalAccounts/],
      [{ chain: { vmErrorsOnRPCResponse: 'yes' } }, /chain\.vmErrorsOnRPCResponse: expected true or false/],
      [{ miner: { instamine: 'lazy' } }, /miner\.instamine: expected "eager" or "strict"/],
    ];
    for (const [options, message] of cases) expect(() => ganache.provider(options), JSON.stringify(options)).to.throw(message);
  });

  it('allowUnlimitedContractSize (flat) and chain.allowUnlimitedContractSize let 24577 bytes of code deploy', async () => {
    const big = '0x6160016000f3'; // init code returning 24577 zero bytes
    for (const [options, status] of [
      [{ allowUnlimitedContractSize: true }, '0x1'],
      [{ chain: { allowUnlimitedContractSize: true } }, '0x1'],
      [{}, '0x0'],
    ] as const) {
      const provider = ganache.provider({ ...options, logging: { quiet: true } });
      try {
        const [from] = (await provider.request({ method: 'eth_accounts' })) as string[];
        const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from, data: big, gas: '0x1000000' }] });
        const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string };
        expect(receipt.status, JSON.stringify(options)).to.equal(status);
      } finally {
        await provider.disconnect();
      }
    }
  });

  it('database.dbPath (and db_path): the chain is kept in that directory across a disconnect, by provider and by server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chain-sim-ganache-db-'));
    try {
      const options = { wallet: { deterministic: true }, logging: { quiet: true } };
      const first = ganache.provider({ ...options, database: { dbPath: dir } });
      const [from, to] = (await first.request({ method: 'eth_accounts' })) as string[];
      await first.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1234' }] });
      await first.disconnect();
      expect(await readdir(dir)).to.deep.equal(['chain-sim-state.json']);
      const again = ganache.server({ ...options, db_path: dir });
      await again.listen(0);
      expect(await again.provider.request({ method: 'eth_blockNumber' })).to.equal('0x1');
      expect(await again.provider.request({ method: 'eth_getBalance', params: [to, 'latest'] })).to.equal('0x3635c9adc5dea01234');
      await again.provider.request({ method: 'evm_mine' });
      await again.close();
      const third = ganache.provider({ ...options, database: { dbPath: dir } });
      expect(await third.request({ method: 'eth_blockNumber' })).to.equal('0x2');
      await third.disconnect();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('maps fork.* to the fork option, which forks (an unreachable upstream is named)', async () => {
    expect(mapGanacheOptions({ fork: { url: 'http://127.0.0.1:1', blockNumber: 5 } }).options.fork).to.deep.equal({
      url: 'http://127.0.0.1:1',
      blockNumber: 5,
      headers: undefined,
    });
    expect(mapGanacheOptions({ fork: 'http://127.0.0.1:1', fork_block_number: 9 }).options.fork).to.deep.equal({
      url: 'http://127.0.0.1:1',
      blockNumber: 9,
      headers: undefined,
    });
    // The upstream's request rate and the disk cache map to chain-sim's own fork knobs.
    const knobs = mapGanacheOptions({ fork: { url: 'http://127.0.0.1:1', requestsPerSecond: 7, disableCache: true, deleteCache: false } }).options;
    expect([knobs.forkRequestsPerSecond, knobs.forkCache]).to.deep.equal([7, false]);
    expect(() => mapGanacheOptions({ fork: { url: 'http://127.0.0.1:1', deleteCache: true } })).to.throw(/fork\.deleteCache: not supported/);
    const forked = ganache.provider({ fork: { url: 'http://127.0.0.1:1' }, logging: { quiet: true } });
    const failure = await forked.request({ method: 'eth_chainId' }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.match(/fork upstream http:\/\/127\.0\.0\.1:1/);
  });

  it('a random mnemonic by default, the accounts given by key replace the derived ones', async () => {
    const a = ganache.provider({ logging: { quiet: true } });
    const b = ganache.provider({ logging: { quiet: true } });
    const key = `0x${'22'.repeat(32)}`;
    const c = ganache.provider({
      logging: { quiet: true },
      wallet: { accounts: [{ secretKey: key, balance: '0x64' }] },
      unlocked_accounts: ['0x00000000000000000000000000000000000000cc'],
    });
    try {
      expect(Object.keys(a.getInitialAccounts())).to.have.length(10);
      expect(await a.request({ method: 'eth_accounts' })).to.not.deep.equal(await b.request({ method: 'eth_accounts' }));
      const accounts = (await c.request({ method: 'eth_accounts' })) as string[];
      expect(accounts).to.have.length(1);
      expect(await c.request({ method: 'eth_getBalance', params: [accounts[0], 'latest'] })).to.equal('0x64');
      expect(c.getInitialAccounts()[accounts[0]!]).to.deep.include({ secretKey: key, balance: 100n });
      // An unlocked address the node holds no key for sends unsigned, as Ganache's unlocked_accounts.
      await c.request({ method: 'evm_setAccountBalance', params: ['0x00000000000000000000000000000000000000cc', '0xde0b6b3a7640000'] });
      const hash = await c.request({ method: 'eth_sendTransaction', params: [{ from: '0x00000000000000000000000000000000000000cc', to: accounts[0] }] });
      expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    } finally {
      await Promise.all([a.disconnect(), b.disconnect(), c.disconnect()]);
    }
  });

  it('legacy send(payload, callback), batches, sendAsync and send(method, params)', async () => {
    const provider = ganache.provider({ logging: { quiet: true }, chain: { chainId: 10 } });
    try {
      const one = await new Promise<unknown[]>((resolve) =>
        provider.send({ jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: [] }, (...args: unknown[]) => resolve(args)),
      );
      expect(one).to.deep.equal([null, { jsonrpc: '2.0', id: 4, result: '0xa' }]);
      // No id asked, none answered (Ganache 7.9.2 leaves it out too).
      const anonymous = await new Promise<unknown[]>((resolve) =>
        provider.send({ jsonrpc: '2.0', method: 'eth_chainId', params: [] }, (...args: unknown[]) => resolve(args)),
      );
      expect(anonymous).to.deep.equal([null, { jsonrpc: '2.0', result: '0xa' }]);
      const failed = await new Promise<unknown[]>((resolve) =>
        provider.sendAsync({ jsonrpc: '2.0', id: 5, method: 'eth_nope', params: [] }, (...args: unknown[]) => resolve(args)),
      );
      expect((failed[0] as Error).message).to.match(/eth_nope does not exist/);
      expect(failed[1]).to.deep.include({ id: 5, error: { code: -32601, message: (failed[0] as Error).message } });
      const batch = await new Promise<unknown[]>((resolve) =>
        provider.send(
          [
            { id: 1, method: 'net_version' },
            { id: 2, method: 'eth_nope' },
          ],
          (...args: unknown[]) => resolve(args),
        ),
      );
      expect(batch[0]).to.equal(null);
      expect((batch[1] as Array<{ id: number }>).map((r) => r.id)).to.deep.equal([1, 2]);
      expect(await provider.send('eth_chainId', [])).to.equal('0xa');
    } finally {
      await provider.disconnect();
    }
  });

  it("subscriptions arrive as 'message' (EIP-1193) and 'data' (web3 1.x) events", async () => {
    const provider = ganache.provider({ logging: { quiet: true } });
    try {
      const id = await provider.request({ method: 'eth_subscribe', params: ['newHeads'] });
      const message = new Promise<{ type: string; data: { subscription: string } }>((resolve) => provider.once('message', resolve));
      const data = new Promise<{ method: string; params: { subscription: string } }>((resolve) => provider.once('data', resolve));
      await provider.request({ method: 'evm_mine' });
      expect((await message).type).to.equal('eth_subscription');
      expect((await message).data.subscription).to.equal(id);
      expect((await data).method).to.equal('eth_subscription');
      expect((await data).params.subscription).to.equal(id);
    } finally {
      await provider.disconnect();
    }
  });

  it('server(options).listen(port, host, callback) serves HTTP; close() stops it', async () => {
    const server = ganache.server({ logging: { quiet: true }, chain: { networkId: 99 } });
    await new Promise<void>((resolve, reject) => server.listen(0, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
    const address = server.address()!;
    expect(address).to.include({ address: '127.0.0.1', family: 'IPv4' });
    const response = await fetch(`http://127.0.0.1:${address.port}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'net_version' }),
    });
    expect(await response.json()).to.deep.equal({ jsonrpc: '2.0', id: 1, result: '99' });
    expect(await server.provider.request({ method: 'net_version' })).to.equal('99');
    await server.close();
    expect(server.status).to.equal('closed');
    // As in Ganache 7.9.2, closing the server disconnects its provider.
    const refused = await server.provider.request({ method: 'net_version' }).then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    expect(refused).to.equal('Cannot process request, Ganache is disconnected.');
    await fetch(`http://127.0.0.1:${address.port}`).then(
      () => expect.fail('still listening'),
      () => {},
    );
    let error: unknown;
    await (server.listen(0) as Promise<void>).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/already closed/);
    expect(() => server.listen(70000)?.catch(() => {})).to.not.throw();
  });
});
