// JSON-RPC over WebSocket on the HTTP port, with eth_subscribe: ethers' and viem's WebSocket
// clients against the CLI, raw frames for the edges, and the in-process provider's 'message' events.
import { expect } from 'chai';
import { Contract, ContractFactory, NonceManager, Wallet, WebSocketProvider } from 'ethers';
import { createPublicClient, webSocket } from 'viem';
import WebSocket from 'ws';
import { ADDRESSES, KEYS, artifact, newNode, signed } from '../helpers/chain.js';
import { type RunningCli, startCli } from '../helpers/cli.js';

const TO = '0x000000000000000000000000000000000000beef';

/** A raw WebSocket JSON-RPC client that keeps every notification. */
async function rawClient(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const notifications: Array<{ subscription: string; result: Record<string, unknown> | string }> = [];
  const waiting = new Map<number, (message: { result?: unknown; error?: { code: number; message: string } }) => void>();
  const unsolicited: unknown[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.method === 'eth_subscription') notifications.push(message.params);
    else if (waiting.has(message.id)) waiting.get(message.id)!(message);
    else unsolicited.push(message);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextId = 1;
  const call = (method: string, params: unknown[] = []) =>
    new Promise<{ result?: unknown; error?: { code: number; message: string } }>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const answer = await call(method, params);
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  };
  return { ws, rpc, call, notifications, unsolicited };
}

const until = async (condition: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition(), what).to.equal(true);
};

describe('WebSocket JSON-RPC and eth_subscribe', function () {
  this.timeout(60_000);
  let cli: RunningCli;
  let wsUrl: string;

  before(async () => {
    cli = await startCli(['--port', '0', '--hardfork', 'prague']);
    wsUrl = cli.url.replace('http://', 'ws://');
  });
  after(async () => {
    await cli.stop();
  });

  it("ethers' WebSocketProvider: reads, block events and a contract's event listener", async () => {
    const provider = new WebSocketProvider(wsUrl);
    try {
      expect(Number((await provider.getNetwork()).chainId)).to.equal(1337);
      const signer = new NonceManager(new Wallet(KEYS[1], provider));
      const { abi, bytecode } = artifact('Token');
      const token = (await new ContractFactory(abi, bytecode, signer).deploy('Token', 'TKN', 1000n)) as Contract;
      await token.waitForDeployment();
      const blocks: number[] = [];
      await provider.on('block', (n: number) => blocks.push(n));
      const transfers: bigint[] = [];
      await token.on('Transfer', (_from: string, _to: string, value: bigint) => transfers.push(value));
      const receipt = await (await token.getFunction('transfer')(TO, 7n)).wait();
      await until(() => transfers.length === 1 && blocks.includes(receipt!.blockNumber), 'a Transfer event and the block event');
      expect(transfers).to.deep.equal([7n]);
    } finally {
      await provider.destroy();
    }
  });

  it("viem's webSocket transport: watchBlockNumber", async () => {
    const client = createPublicClient({ transport: webSocket(wsUrl) });
    const seen: bigint[] = [];
    const unwatch = client.watchBlockNumber({ onBlockNumber: (n) => seen.push(n) });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the subscription is in place
      const { rpc, ws } = await rawClient(wsUrl);
      await rpc('evm_mine');
      const head = BigInt(await rpc<string>('eth_blockNumber'));
      ws.close();
      await until(() => seen.includes(head), `block ${head} seen`);
    } finally {
      unwatch();
      await (await client.transport.getRpcClient()).close();
    }
  });

  it('logs come again with removed: true after a revert; newHeads and pending hashes; unsubscribe', async () => {
    const { rpc, notifications, ws } = await rawClient(wsUrl);
    const { abi, bytecode } = artifact('Token');
    const deployer = new Wallet(KEYS[2]);
    const nonce = Number(await rpc<string>('eth_getTransactionCount', [deployer.address, 'latest']));
    const deployHash = await rpc<string>('eth_sendRawTransaction', [
      await signed(2, { data: bytecode + new ContractFactory(abi, bytecode).interface.encodeDeploy(['T', 'T', 100n]).slice(2), nonce, gasLimit: 3_000_000 }),
    ]);
    const token = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash])).contractAddress;
    const logs = await rpc<string>('eth_subscribe', ['logs', { address: token }]);
    const heads = await rpc<string>('eth_subscribe', ['newHeads']);
    const pending = await rpc<string>('eth_subscribe', ['newPendingTransactions']);
    const snapshot = await rpc<string>('evm_snapshot');
    const data = new Contract(token, abi).interface.encodeFunctionData('transfer', [TO, 3n]);
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(2, { to: token, data, nonce: nonce + 1 })]);
    await rpc('evm_revert', [snapshot]);
    await until(() => notifications.filter((n) => n.subscription === logs).length === 2, 'the log and its removal');
    const [added, removed] = notifications.filter((n) => n.subscription === logs).map((n) => n.result as Record<string, unknown>);
    expect(added).to.include({ transactionHash: hash, removed: false });
    expect(removed).to.include({ transactionHash: hash, removed: true });
    expect(notifications.filter((n) => n.subscription === pending).map((n) => n.result)).to.deep.equal([hash]);
    const head = notifications.find((n) => n.subscription === heads)!.result as Record<string, unknown>;
    expect(head).to.include.keys('number', 'hash', 'parentHash', 'stateRoot', 'timestamp');
    expect(await rpc('eth_unsubscribe', [heads])).to.equal(true);
    expect(await rpc('eth_unsubscribe', [heads])).to.equal(false);
    const before = notifications.length;
    await rpc('evm_mine');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(notifications.slice(before).filter((n) => n.subscription === heads)).to.deep.equal([]);
    ws.close();
  });

  it('answers bad frames with JSON-RPC errors, closes on oversized ones, refuses foreign origins', async () => {
    const { ws, call, unsolicited } = await rawClient(wsUrl);
    ws.send('{not json');
    await until(() => unsolicited.length === 1, 'a parse error');
    expect(unsolicited[0]).to.deep.include({ id: null, error: { code: -32700, message: 'parse error: message is not valid JSON' } });
    expect((await call('eth_subscribe', ['newHeads', { extra: 1 }])).error).to.deep.equal({
      code: -32602,
      message: 'invalid argument 1 (options): newHeads takes no options',
    });
    expect((await call('eth_subscribe', ['logs', { topics: 'x' }])).error?.code).to.equal(-32602);
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    ws.send(`[${'0,'.repeat(3 * 1024 * 1024)}0]`); // over the 5 MiB message bound
    expect(await closed).to.equal(1009);

    await new Promise<void>((resolve, reject) => {
      const foreign = new WebSocket(wsUrl, { headers: { origin: 'https://evil.example' } });
      foreign.once('unexpected-response', (_req, res) => {
        expect(res.statusCode).to.equal(403);
        resolve();
      });
      foreign.once('open', () => reject(new Error('a foreign origin connected')));
      foreign.once('error', () => {});
    });
    const local = await rawClient(wsUrl, { origin: 'http://localhost:3000' });
    expect(await local.rpc('eth_chainId')).to.equal('0x539');
    local.ws.close();
  });

  it('serves many subscribed connections at once, and each gets every head', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => rawClient(wsUrl)));
    const ids = await Promise.all(clients.map((client) => client.rpc<string>('eth_subscribe', ['newHeads'])));
    await clients[0]!.rpc('evm_mine');
    await until(() => clients.every((client) => client.notifications.length === 1), 'a head on every connection');
    clients.forEach((client, i) => expect(client.notifications[0]!.subscription).to.equal(ids[i]));
    for (const client of clients) client.ws.close();
    expect(cli.output()).to.not.include('MaxListenersExceededWarning');
  });

  it('over plain HTTP, eth_subscribe says notifications need a WebSocket', async () => {
    const response = await fetch(cli.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
    });
    expect(((await response.json()) as { error: unknown }).error).to.deep.equal({
      code: -32601,
      message: 'notifications not supported: subscribe over WebSocket (ws://, same port)',
    });
  });
});

describe('eth_subscribe through the in-process provider', () => {
  it('notifies as EIP-1193 message events', async () => {
    const { provider, rpc } = newNode();
    const messages: Array<{ type: string; data: { subscription: string; result: unknown } }> = [];
    provider.on('message', (message) => messages.push(message));
    const id = await rpc<string>('eth_subscribe', ['newPendingTransactions']);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: TO, value: '0x1' }]);
    await until(() => messages.length === 1, 'one message');
    expect(messages[0]).to.deep.equal({ type: 'eth_subscription', data: { subscription: id, result: hash } });
    expect(await rpc('eth_unsubscribe', [id])).to.equal(true);
    await provider.disconnect();
  });
});
