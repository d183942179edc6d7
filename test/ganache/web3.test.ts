/**
 * A Truffle-era web3.js suite, unchanged but for its import line: `ganache` is
 * chain-sim/ganache. It builds a provider in beforeEach (in process, or a server listening
 * on a port), deploys a token, and uses evm_snapshot/evm_revert, vmErrorsOnRPCResponse and
 * ganache-core's flat option names, as such suites do.
 */
import { expect } from 'chai';
import { Web3 } from 'web3';
import ganache from '../../src/ganache/index.js';
import { artifact } from '../helpers/chain.js';

const token = artifact('Token');

for (const mode of ['provider', 'server'] as const) {
  describe(`web3.js 4 against chain-sim/ganache (${mode})`, function () {
    this.timeout(30_000);
    let web3: Web3;
    let accounts: string[];
    let close: () => Promise<void>;

    const start = async (options: object) => {
      if (mode === 'provider') {
        const provider = ganache.provider(options);
        close = () => provider.disconnect();
        return new Web3(provider as never);
      }
      const server = ganache.server(options);
      await server.listen(0);
      close = () => server.close();
      return new Web3(`http://127.0.0.1:${server.address()!.port}`);
    };

    beforeEach(async () => {
      web3 = await start({ wallet: { deterministic: true }, chain: { vmErrorsOnRPCResponse: true }, logging: { quiet: true } });
      accounts = await web3.eth.getAccounts();
    });
    afterEach(() => close());

    async function deployToken(supply = 1000n) {
      const contract = new web3.eth.Contract(token.abi as never);
      return contract.deploy({ data: token.bytecode, arguments: ['Test', 'TST', supply] } as never).send({ from: accounts[0]!, gas: '3000000' });
    }

    it('deploys, reads and transfers', async () => {
      expect(accounts[0]).to.equal('0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1');
      expect(await web3.eth.getBalance(accounts[0]!)).to.equal(1000n * 10n ** 18n);
      const instance = await deployToken();
      const methods = instance.methods as Record<
        string,
        (...args: unknown[]) => { call(): Promise<unknown>; send(options: object): Promise<{ status: bigint; events?: Record<string, unknown> }> }
      >;
      expect(await methods.name!().call()).to.equal('Test');
      const receipt = await methods.transfer!(accounts[1], 10n).send({ from: accounts[0] });
      expect(receipt.status).to.equal(1n);
      expect(receipt.events).to.have.property('Transfer');
      expect(await methods.balanceOf!(accounts[1]).call()).to.equal(10n);
    });

    it('evm_snapshot and evm_revert undo a transfer', async () => {
      const instance = await deployToken();
      const methods = instance.methods as Record<string, (...args: unknown[]) => { call(): Promise<unknown>; send(options: object): Promise<unknown> }>;
      const id = await web3.requestManager.send({ method: 'evm_snapshot', params: [] });
      await methods.transfer!(accounts[1], 10n).send({ from: accounts[0] });
      expect(await methods.balanceOf!(accounts[1]).call()).to.equal(10n);
      expect(await web3.requestManager.send({ method: 'evm_revert', params: [id] })).to.equal(true);
      expect(await methods.balanceOf!(accounts[1]).call()).to.equal(0n);
    });

    it('vmErrorsOnRPCResponse: a failing send rejects with the revert reason', async () => {
      const instance = await deployToken(5n);
      const methods = instance.methods as Record<string, (...args: unknown[]) => { send(options: object): Promise<unknown> }>;
      let error: unknown;
      await methods.transfer!(accounts[1], 10n)
        .send({ from: accounts[0], gas: '100000' })
        .catch((e: unknown) => (error = e));
      expect(error, 'the send should fail').to.not.equal(undefined);
      expect(JSON.stringify(error, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) + String(error)).to.contain('Token: insufficient balance');
      // The failed transaction is mined, as in Ganache.
      expect(await web3.eth.getBlockNumber()).to.equal(2n);
    });

    it("ganache-core 2's flat options: total_accounts, default_balance_ether, network_id, gasLimit", async () => {
      await close();
      web3 = await start({
        total_accounts: 3,
        default_balance_ether: 50,
        network_id: 4242,
        gasLimit: 8_000_000,
        mnemonic: 'myth like bonus scare over problem client lizard pioneer submit female collect',
        quiet: true,
      });
      accounts = await web3.eth.getAccounts();
      expect(accounts).to.have.length(3);
      expect(await web3.eth.getBalance(accounts[2]!)).to.equal(50n * 10n ** 18n);
      expect(await web3.eth.net.getId()).to.equal(4242n);
      expect(await web3.eth.getChainId()).to.equal(1337n);
      expect((await web3.eth.getBlock('latest')).gasLimit).to.equal(8_000_000n);
    });
  });
}
