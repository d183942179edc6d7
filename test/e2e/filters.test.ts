import { expect } from 'chai';
import { type BaseContract, Contract, ContractFactory, type ContractEventPayload, JsonRpcProvider, type Log, getAddress } from 'ethers';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { ACCOUNTS, TOKEN, TRANSFER, addressTopic } from '../rpc/filters.fixture.js';

const [, ALICE, BOB] = ACCOUNTS;
const GAS = { gasLimit: 100_000 };

/** Wait for a condition that real-time polling makes true (bounded, so a bug fails instead of hanging). */
async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const position = (log: Log) => [log.blockNumber, log.blockHash, log.transactionHash, log.transactionIndex, log.index, log.address, log.data, log.topics];

describe('filters end to end: ethers v6 JsonRpcProvider over HTTP', () => {
  let server: ChainSimServer;
  let provider: JsonRpcProvider;
  let token: Contract;
  const liveFilters = () => server.node.filters.size;

  before(async () => {
    server = await createServer({ quiet: true });
    const { url } = await server.listen(0, '127.0.0.1');
    provider = new JsonRpcProvider(url, 1337, { staticNetwork: true, pollingInterval: 50 });
    const factory = new ContractFactory(TOKEN.abi, TOKEN.bytecode, await provider.getSigner(0));
    const deployed: BaseContract = await factory.deploy('Token', 'TOK', 1_000_000n, { gasLimit: 2_000_000 });
    await deployed.waitForDeployment();
    token = new Contract(await deployed.getAddress(), TOKEN.abi, await provider.getSigner(0));
  });

  after(async () => {
    provider.destroy();
    server.node.filters.close();
    await server.close();
  });

  async function transfer(to: string, value: bigint): Promise<string> {
    const tx = await token.getFunction('transfer')(to, value, GAS);
    await tx.wait();
    return tx.hash as string;
  }

  it('contract.on(Transfer) receives exactly the emitted events, through an installed filter', async () => {
    const received: { from: string; to: string; value: bigint; hash: string; removed: boolean }[] = [];
    await token.on('Transfer', (from: string, to: string, value: bigint, payload: ContractEventPayload) => {
      received.push({ from, to, value, hash: payload.log.transactionHash, removed: payload.log.removed });
    });
    await until(() => liveFilters() === 1, 'ethers to install its filter');
    const owner = await (await provider.getSigner(0)).getAddress();
    const sent = [await transfer(ALICE, 1n), await transfer(BOB, 2n), await transfer(ALICE, 3n)];
    // An approval in between must not reach a Transfer listener.
    await (await token.getFunction('approve')(BOB, 9n, GAS)).wait();
    sent.push(await transfer(BOB, 4n));
    await until(() => received.length >= 4, 'four Transfer events');
    // A duplicate or a stray event would sit before the last one; the list is exactly what was sent.
    const expected = [ALICE, BOB, ALICE, BOB].map((to, i) => ({ from: owner, to: getAddress(to), value: BigInt(i + 1), hash: sent[i], removed: false }));
    expect(received).to.deep.equal(expected);
    await token.removeAllListeners();
    await until(() => liveFilters() === 0, 'ethers to uninstall its filter');
  });

  it('provider.on(pending) receives transaction hashes through a pending-transaction filter', async () => {
    const hashes: string[] = [];
    await provider.on('pending', (hash: string) => hashes.push(hash));
    await until(() => liveFilters() === 1, 'ethers to install its filter');
    const sent = [await transfer(ALICE, 5n), await transfer(BOB, 6n)];
    await until(() => hashes.length >= 2, 'two pending hashes');
    expect(hashes).to.deep.equal(sent);
    await provider.removeAllListeners('pending');
    await until(() => liveFilters() === 0, 'ethers to uninstall its filter');
  });

  it('contract.queryFilter equals eth_getLogs', async () => {
    const address = await token.getAddress();
    const all = await token.queryFilter(token.filters.Transfer!(), 0, 'latest');
    const raw = (await provider.send('eth_getLogs', [{ address, topics: [TRANSFER], fromBlock: '0x0', toBlock: 'latest' }])) as unknown[];
    expect(all.map(position)).to.deep.equal(raw.map((r) => position(provider._wrapLog(r as never, provider._network))));
    expect(all).to.have.length(7); // the mint and six transfers
    const toBob = await token.queryFilter(token.filters.Transfer!(null, BOB), 0, 'latest');
    const rawToBob = (await provider.send('eth_getLogs', [{ address, topics: [TRANSFER, null, addressTopic(BOB)], fromBlock: '0x0' }])) as unknown[];
    expect(toBob.map(position)).to.deep.equal(rawToBob.map((r) => position(provider._wrapLog(r as never, provider._network))));
    expect(toBob.map((e) => ('args' in e ? e.args[2] : undefined))).to.deep.equal([2n, 4n, 6n]);
  });
});
