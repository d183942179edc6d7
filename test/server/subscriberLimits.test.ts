/**
 * WebSocket subscribers that cannot keep up (issue 25, items 3 and 4), with real sockets:
 * a client that stops reading is dropped with a close frame as its notice and the bytes the
 * server queues for it stay bounded; one connection may hold at most
 * MAX_SUBSCRIPTIONS_PER_CONNECTION subscriptions; and notifications go out in slices, so
 * another connection is answered while a large delivery is still in progress.
 */
import { expect } from 'chai';
import WebSocket, { type WebSocketServer } from 'ws';
import { startNode } from '../../src/startup/node.js';
import { createProvider } from '../../src/provider.js';
import { HIGH_WATER_BYTES, MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../src/rpc/subscriptions.js';
import { ChainSimServer } from '../../src/server/index.js';
import { DROPPED_CLOSE_CODE } from '../../src/server/websocket.js';
import { postJson } from '../helpers/rpc.js';

/** What the server may hold for one client: the high-water mark, one slice of notifications on top, and the close frame. */
const BOUND = HIGH_WATER_BYTES + 1024 * 1024;

interface Client {
  readonly ws: WebSocket;
  /** Notifications received so far, per subscription id. */
  readonly received: Map<string, number>;
  total(): number;
  call(method: string, params?: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

async function client(url: string): Promise<Client> {
  const ws = new WebSocket(url);
  const received = new Map<string, number>();
  const waiting = new Map<number, (message: { result?: unknown; error?: { code: number; message: string } }) => void>();
  let total = 0;
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.method === 'eth_subscription') {
      total++;
      received.set(message.params.subscription, (received.get(message.params.subscription) ?? 0) + 1);
    } else waiting.get(message.id)?.(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextId = 1;
  return {
    ws,
    received,
    total: () => total,
    closed,
    call: (method, params = []) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      }),
  };
}

/** The underlying TCP socket of a ws client: pausing it stops reading, as a stuck client does. */
const socketOf = (ws: WebSocket) => (ws as unknown as { _socket: import('node:net').Socket })._socket;

async function http<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = JSON.parse((await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).body) as { result?: T; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

describe('WebSocket subscribers: bounded queues, capped subscriptions, deliveries in slices', function () {
  this.timeout(30_000);
  let server: ChainSimServer;
  let url: string;
  let wsUrl: string;
  const clients: WebSocket[] = [];

  async function start(subscriberStallMs = 60_000): Promise<void> {
    server = new ChainSimServer(await startNode({ port: 0, quiet: true }), { subscriberStallMs });
    url = (await server.listen()).url;
    wsUrl = url.replace('http://', 'ws://');
  }
  /** The server's side of each WebSocket connection. */
  const serverSockets = () => [...(server as unknown as { webSocket: WebSocketServer }).webSocket.clients];
  const open = async () => {
    const c = await client(wsUrl);
    clients.push(c.ws);
    return c;
  };

  afterEach(async () => {
    for (const ws of clients.splice(0)) ws.terminate();
    await server?.close();
  });

  it('a subscriber that stops reading is dropped with a close frame; what is queued for it stays bounded', async () => {
    await start();
    const subscriber = await open();
    const { result: id } = await subscriber.call('eth_subscribe', ['newHeads']);
    socketOf(subscriber.ws).pause();
    // The case: twelve chain_mine of 20,000 blocks from another connection.
    let mostQueued = 0;
    for (let i = 0; i < 12; i++) {
      await http(url, 'hardhat_mine', ['0x4e20']);
      await new Promise((resolve) => setImmediate(resolve));
      for (const ws of serverSockets()) mostQueued = Math.max(mostQueued, ws.bufferedAmount);
    }
    expect(mostQueued, 'bytes queued for the paused subscriber').to.be.below(BOUND);
    expect(await http(url, 'eth_blockNumber')).to.equal('0x3a980');
    // Reading again, the client gets what was queued in order, then the notice.
    socketOf(subscriber.ws).resume();
    const { code, reason } = await subscriber.closed;
    expect(code).to.equal(DROPPED_CLOSE_CODE);
    expect(reason).to.match(/^subscriber too far behind \(more than 20000 notifications waiting\)/);
    expect(subscriber.received.get(id as string)).to.be.within(1, 20_000);
  });

  it('a subscriber that reads nothing for the stall timeout is dropped even when no notification was lost', async () => {
    await start(300);
    const subscriber = await open();
    await subscriber.call('eth_subscribe', ['newHeads']);
    socketOf(subscriber.ws).pause();
    await http(url, 'hardhat_mine', ['0x4e20']); // 20,000 heads: more than the kernel's socket buffers and the high-water mark
    // The kernel's socket buffers take several MB first; then the server's own queue fills and sending waits.
    while (!serverSockets().some((ws) => ws.bufferedAmount >= HIGH_WATER_BYTES)) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(Math.max(...serverSockets().map((ws) => ws.bufferedAmount)), 'bytes queued').to.be.below(BOUND);
    socketOf(subscriber.ws).resume();
    const { code, reason } = await subscriber.closed;
    expect(code).to.equal(DROPPED_CLOSE_CODE);
    expect(reason).to.match(/^subscriber too far behind \(\d+ bytes unread for 0\.3 s\)/);
  });

  it(`refuses subscription ${MAX_SUBSCRIPTIONS_PER_CONNECTION + 1} on one connection with -32000 naming the cap`, async () => {
    await start();
    const c = await open();
    const answers = await Promise.all(Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION }, () => c.call('eth_subscribe', ['newHeads'])));
    expect(answers.filter((answer) => answer.error)).to.deep.equal([]);
    const refused = await c.call('eth_subscribe', ['logs', {}]);
    expect(refused.error?.code).to.equal(-32000);
    expect(refused.error?.message).to.include(`at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection`);
    // Unsubscribing makes room again.
    expect((await c.call('eth_unsubscribe', [answers[0]!.result])).result).to.equal(true);
    expect((await c.call('eth_subscribe', ['newHeads'])).error).to.equal(undefined);
  });

  it('a subscriber that keeps reading gets every head of a chain_mine of 60,000 blocks (3x the backlog), in order, and stays connected', async () => {
    // More than the 20,000-notification backlog: a reserved run is handed out a slice at a
    // time, so a reader that keeps up is never dropped for it.
    await start();
    const subscriber = await open();
    const { result: id } = await subscriber.call('eth_subscribe', ['newHeads']);
    const numbers: number[] = [];
    subscriber.ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.method === 'eth_subscription') numbers.push(Number(message.params.result.number));
    });
    let closed = false;
    void subscriber.closed.then(() => (closed = true));
    const BLOCKS = 60_000;
    await http(url, 'chain_mine', [`0x${BLOCKS.toString(16)}`]);
    for (let i = 0; i < 5000 && numbers.length < BLOCKS && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed, 'the subscriber was dropped').to.equal(false);
    expect(numbers.length).to.equal(BLOCKS);
    expect(
      numbers.every((n, i) => n === i + 1),
      'heads 1..60000 in order',
    ).to.equal(true);
    expect(subscriber.received.get(id as string)).to.equal(BLOCKS);
  });

  it('a client that sends requests but reads no answers: once 1 MiB is queued the node reads no more of its requests; all are answered when it reads', async () => {
    await start();
    const c = await open();
    socketOf(c.ws).pause();
    // eth_call of init code that returns 24,576 zero bytes: an answer of about 49 KB, 200 of
    // them about 10 MB (the kernel's socket buffers take several MB first).
    const RETURN_24K = '0x6160006000f3';
    const batch = (n: number) => Array.from({ length: n }, () => c.call('eth_call', [{ data: RETURN_24K }, 'latest']));
    const settle = async () => {
      // Until the bytes queued for the client stop changing.
      let last = -1;
      for (let i = 0; i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = Math.max(...serverSockets().map((ws) => ws.bufferedAmount));
        if (now === last && now > 0) return now;
        last = now;
      }
      return last;
    };
    // The first batch arrives in one read, before any answer exists: all of it is answered
    // (documented: requests already received are answered; not a hard byte limit).
    const first = batch(200);
    const afterFirst = await settle();
    expect(afterFirst).to.be.at.least(HIGH_WATER_BYTES);
    expect(
      serverSockets().some((ws) => ws.isPaused),
      'the server stopped reading the client',
    ).to.equal(true);
    // Requests sent now are not read, so nothing more is queued for the client.
    const second = batch(200);
    const afterSecond = await settle();
    expect(afterSecond, 'bytes queued after the second batch').to.equal(afterFirst);
    socketOf(c.ws).resume();
    const results = await Promise.all([...first, ...second]);
    expect(results.filter((answer) => answer.result !== `0x${'00'.repeat(24_576)}`)).to.deep.equal([]);
  });

  it(`the in-process provider refuses subscription ${MAX_SUBSCRIPTIONS_PER_CONNECTION + 1} too`, async () => {
    const provider = createProvider({ quiet: true });
    try {
      for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_CONNECTION; i++) await provider.request({ method: 'eth_subscribe', params: ['newHeads'] });
      const refused = await provider.request({ method: 'eth_subscribe', params: ['newHeads'] }).then(
        () => undefined,
        (error: { code: number; message: string }) => error,
      );
      expect(refused?.code).to.equal(-32000);
      expect(refused?.message).to.include(`at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection`);
    } finally {
      await provider.disconnect();
    }
  });

  it('notifies many subscriptions in slices: another connection is answered while the delivery is in progress', async () => {
    await start();
    const subscriber = await open();
    const SUBSCRIPTIONS = 200;
    const BLOCKS = 250;
    const ids = await Promise.all(Array.from({ length: SUBSCRIPTIONS }, async () => (await subscriber.call('eth_subscribe', ['newHeads'])).result as string));
    const other = await open();
    await http(url, 'hardhat_mine', [`0x${BLOCKS.toString(16)}`]);
    // Asked right after the mine, while 50,000 notifications are due.
    const queuedWhenAnswered = await other.call('eth_blockNumber').then((answer) => {
      expect(answer.result).to.equal(`0x${BLOCKS.toString(16)}`);
      return { queued: Math.max(...serverSockets().map((ws) => ws.bufferedAmount)), received: subscriber.total() };
    });
    expect(queuedWhenAnswered.received, 'notifications received when the other connection was answered').to.be.below(SUBSCRIPTIONS * BLOCKS);
    expect(queuedWhenAnswered.queued, 'bytes queued for the subscriber then').to.be.below(BOUND);
    // And every subscription still gets every head.
    for (let i = 0; i < 3000 && subscriber.total() < SUBSCRIPTIONS * BLOCKS; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(subscriber.total()).to.equal(SUBSCRIPTIONS * BLOCKS);
    for (const id of ids) expect(subscriber.received.get(id)).to.equal(BLOCKS);
  });
});
