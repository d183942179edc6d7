/**
 * An ethers suite written as Ganache's README and Truffle-era projects write it, with only
 * the import changed to chain-sim/ganache: provider in beforeEach, wallets from
 * getInitialAccounts(), evm_snapshot/evm_revert, evm_increaseTime, vmErrorsOnRPCResponse,
 * legacy options; in process (BrowserProvider over ganache.provider) and over
 * ganache.server(...).listen (JsonRpcProvider and WebSocketProvider).
 */
import { expect } from 'chai';
import { BrowserProvider, ContractFactory, type Contract, type Eip1193Provider, JsonRpcProvider, Wallet, WebSocketProvider, parseEther } from 'ethers';
import ganache from '../../src/ganache/index.js';
import { artifact } from '../helpers/chain.js';

const token = artifact('Token');

for (const mode of ['provider', 'server'] as const) {
  describe(`ethers against chain-sim/ganache (${mode})`, function () {
    this.timeout(30_000);
    let provider: BrowserProvider | JsonRpcProvider;
    let initial: Record<string, { secretKey: string; balance: bigint }>;
    let close: () => Promise<void>;

    const start = async (options: object) => {
      if (mode === 'provider') {
        const ganacheProvider = ganache.provider(options);
        initial = ganacheProvider.getInitialAccounts();
        close = () => ganacheProvider.disconnect();
        // cacheTimeout -1: ethers otherwise answers repeated reads (the pending nonce, 'latest') from a 250 ms cache, stale on an instant chain.
        return new BrowserProvider(ganacheProvider as unknown as Eip1193Provider, undefined, { cacheTimeout: -1 });
      }
      const server = ganache.server(options);
      await server.listen(0, '127.0.0.1');
      initial = server.provider.getInitialAccounts();
      const rpc = new JsonRpcProvider(`http://127.0.0.1:${server.address()!.port}`, undefined, { staticNetwork: true, cacheTimeout: -1 });
      close = async () => {
        rpc.destroy();
        await server.close();
      };
      return rpc;
    };

    beforeEach(async () => {
      provider = await start({ wallet: { totalAccounts: 3, defaultBalance: 100 }, chain: { vmErrorsOnRPCResponse: true }, logging: { quiet: true } });
    });
    afterEach(() => close());

    const wallets = () => Object.values(initial).map((account) => new Wallet(account.secretKey, provider));

    it('wallets from getInitialAccounts() hold the balance asked for and send', async () => {
      const [alice, bob] = wallets();
      expect(await provider.getBalance(alice!.address)).to.equal(parseEther('100'));
      const tx = await alice!.sendTransaction({ to: bob!.address, value: parseEther('1') });
      expect((await tx.wait())!.status).to.equal(1);
      expect(await provider.getBalance(bob!.address)).to.equal(parseEther('101'));
    });

    it('evm_snapshot / evm_revert around a deployment and a transfer; evm_increaseTime moves the clock', async () => {
      const [alice, bob] = wallets();
      const id = await provider.send('evm_snapshot', []);
      const contract = (await new ContractFactory(token.abi, token.bytecode, alice).deploy('Test', 'TST', 1000n)) as Contract;
      await contract.waitForDeployment();
      await (await contract.transfer!(bob!.address, 5n)).wait();
      expect(await contract.balanceOf!(bob!.address)).to.equal(5n);
      const before = (await provider.getBlock('latest'))!.timestamp;
      const offset = await provider.send('evm_increaseTime', [3600]);
      expect(offset).to.be.a('number').at.least(3600);
      await provider.send('evm_mine', []);
      // Blocks mined within one second run ahead of the clock by a second each: the hour is added to the clock.
      expect((await provider.getBlock('latest'))!.timestamp).to.be.within(before + 3590, before + 3700);
      expect(await provider.send('evm_revert', [id])).to.equal(true);
      expect(await provider.getCode(await contract.getAddress())).to.equal('0x');
      expect(await provider.getBlockNumber()).to.equal(0);
    });

    it('vmErrorsOnRPCResponse: a reverting send rejects with the reason', async () => {
      const [alice, bob] = wallets();
      const contract = (await new ContractFactory(token.abi, token.bytecode, alice).deploy('Test', 'TST', 1n)) as Contract;
      await contract.waitForDeployment();
      let error: { message?: string; info?: unknown } | undefined;
      await contract.transfer!(bob!.address, 2n, { gasLimit: 100_000 }).catch((e: { message?: string }) => (error = e));
      expect(error, 'the send should fail').to.not.equal(undefined);
      expect(JSON.stringify(error?.info ?? {}) + error?.message).to.contain('VM Exception while processing transaction: revert Token: insufficient balance');
    });

    it('legacy options (ganache-core 2): accounts with secretKey and balance, network_id, blockTime', async () => {
      await close();
      const secretKey = `0x${'77'.repeat(32)}`;
      provider = await start({ accounts: [{ secretKey, balance: '0x3e8' }], network_id: 31, blockTime: 0.2, quiet: true });
      const address = new Wallet(secretKey).address;
      expect(Object.keys(initial)).to.deep.equal([address.toLowerCase()]);
      expect(await provider.getBalance(address)).to.equal(1000n);
      expect(await provider.send('net_version', [])).to.equal('31');
      const first = await provider.getBlockNumber();
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await provider.getBlockNumber()).to.be.at.least(first + 2);
    });

    if (mode === 'server') {
      it('WebSocket on the same port: ethers sees new blocks', async () => {
        const server = ganache.server({ logging: { quiet: true } });
        await server.listen(0);
        const ws = new WebSocketProvider(`ws://127.0.0.1:${server.address()!.port}`);
        try {
          // on, not once: once unsubscribes after the event, and destroy() below would cancel that
          // eth_unsubscribe mid-flight, which ethers reports as an unhandled rejection.
          const seen = new Promise<number>((resolve) => void ws.on('block', (n: number) => resolve(n)));
          await new Promise((resolve) => setTimeout(resolve, 100));
          await ws.send('evm_mine', []);
          expect(await seen).to.equal(1);
        } finally {
          await ws.destroy();
          await server.close();
        }
      });
    }
  });
}
