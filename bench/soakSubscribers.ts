// Soak rows for WebSocket subscribers (issue 25, items 3 and 4), against the chain-sim CLI:
//  - a newHeads subscriber whose client stops reading, over 100,000 mined blocks: the node's
//    RSS, and whether (and why) the subscriber was dropped;
//  - 2,000 newHeads subscriptions (two connections at the per-connection cap) notified of one
//    chain_mine of 20,000 blocks: how long another connection waits for eth_blockNumber while
//    the notifications go out, and the node's RSS meanwhile.
//
//   npm run bench -- --soak [--subscribers-only]     (or: node dist/bench/soak.js --subscribers-only)
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { httpClient } from './rpc.js';

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type StartCli = () => Promise<{ child: ChildProcess; url: string }>;
type Rss = (pid: number) => number;

interface Subscriber {
  readonly ws: WebSocket;
  /** Messages received (not parsed: the bench client must not be the bottleneck). */
  received(): number;
  readonly closed: Promise<{ code: number; reason: string }>;
  subscribe(count: number): Promise<void>;
}

async function subscriber(wsUrl: string): Promise<Subscriber> {
  const ws = new WebSocket(wsUrl);
  let received = 0;
  let answers = 0;
  let onAnswer: (() => void) | undefined;
  ws.on('message', (data: Buffer) => {
    received++;
    // Answers to eth_subscribe carry an id; notifications start with {"jsonrpc":"2.0","method".
    if (data.includes('"id"')) {
      answers++;
      onAnswer?.();
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ws,
    received: () => received - answers,
    closed,
    subscribe: (count) =>
      new Promise<void>((resolve) => {
        const target = answers + count;
        onAnswer = () => {
          if (answers >= target) resolve();
        };
        for (let i = 0; i < count; i++) ws.send(JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'eth_subscribe', params: ['newHeads'] }));
      }),
  };
}

const socketOf = (ws: WebSocket): Socket => (ws as unknown as { _socket: Socket })._socket;

/** RSS with a paused newHeads subscriber while `blocks` blocks are mined in chunks of 20,000. */
async function pausedSubscriber(startCli: StartCli, rssMb: Rss, blocks: number): Promise<string[]> {
  const { child, url } = await startCli();
  const client = httpClient(url);
  try {
    const sub = await subscriber(url.replace('http://', 'ws://'));
    await sub.subscribe(1);
    socketOf(sub.ws).pause();
    const pausedAt = performance.now();
    const rows = [`| 0 | ${rssMb(child.pid!).toFixed(1)} | open |`];
    let closedWith: { code: number; reason: string } | undefined;
    void sub.closed.then((closed) => (closedWith = closed));
    const chunk = 20_000;
    for (let mined = 0; mined < blocks; ) {
      const n = Math.min(chunk, blocks - mined);
      await client.request('chain_mine', [`0x${n.toString(16)}`]);
      mined += n;
      await sleep(500); // let the deliveries run
      // The server's close frame is queued behind what the paused client has not read: ask the node.
      const state = (await client.request('eth_blockNumber')) === `0x${mined.toString(16)}` ? 'answering' : 'wrong head';
      rows.push(`| ${mined} | ${rssMb(child.pid!).toFixed(1)} | ${state} |`);
    }
    // Past the node's stall timeout (10 s, counted from when its queue for the client filled) before reading again.
    await sleep(12_000);
    rows.push(
      `| ${blocks}, ${((performance.now() - pausedAt) / 1000).toFixed(0)} s after the pause | ${rssMb(child.pid!).toFixed(1)} | answering: ${String(await client.request('eth_blockNumber'))} |`,
    );
    socketOf(sub.ws).resume();
    await Promise.race([sub.closed, sleep(15_000)]);
    const droppedAt = sub.received();
    log(`soak: paused subscriber ${closedWith ? `closed ${closedWith.code} "${closedWith.reason}"` : 'not dropped'}`);
    sub.ws.terminate();
    return [
      `### A newHeads subscriber that stops reading, ${blocks} blocks mined (chain_mine of 20,000 at a time)`,
      '',
      '| blocks mined | node RSS (MB) | node |',
      '|---:|---:|---|',
      ...rows,
      '',
      closedWith
        ? `The subscriber was dropped: close ${closedWith.code} "${closedWith.reason}", after ${droppedAt} notifications reached it once it read again.`
        : `The subscriber was not dropped (${droppedAt} notifications reached it once it read again).`,
    ];
  } finally {
    client.close();
    child.kill('SIGTERM');
  }
}

/** Latency of eth_blockNumber on another connection while `subscriptions` newHeads subscriptions are notified of `blocks` blocks. */
async function manySubscriptions(startCli: StartCli, rssMb: Rss, subscriptions: number, blocks: number, windowMs: number): Promise<string[]> {
  const { child, url } = await startCli();
  const client = httpClient(url);
  const wsUrl = url.replace('http://', 'ws://');
  const perConnection = 1000;
  const subs: Subscriber[] = [];
  try {
    for (let left = subscriptions; left > 0; left -= perConnection) {
      const sub = await subscriber(wsUrl);
      await sub.subscribe(Math.min(perConnection, left));
      subs.push(sub);
    }
    const rssBefore = rssMb(child.pid!);
    const received = () => subs.reduce((sum, s) => sum + s.received(), 0);
    let started = performance.now();
    await client.request('chain_mine', [`0x${blocks.toString(16)}`]);
    const mineMs = performance.now() - started;
    const latencies: number[] = [];
    let rssPeak = rssBefore;
    started = performance.now();
    while (performance.now() - started < windowMs) {
      const asked = performance.now();
      await client.request('eth_blockNumber');
      latencies.push(performance.now() - asked);
      rssPeak = Math.max(rssPeak, rssMb(child.pid!));
      await sleep(100);
    }
    const delivered = received();
    const sorted = [...latencies].sort((a, b) => a - b);
    const due = subscriptions * blocks;
    return [
      `### ${subscriptions} newHeads subscriptions (${subs.length} connections) notified of one chain_mine of ${blocks} blocks`,
      '',
      '| | |',
      '|---|---:|',
      `| chain_mine answered after (ms) | ${mineMs.toFixed(0)} |`,
      `| eth_blockNumber on another connection, first answer (ms) | ${latencies[0]!.toFixed(1)} |`,
      `| ... median / max over ${latencies.length} requests in ${windowMs / 1000} s (ms) | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} / ${sorted[sorted.length - 1]!.toFixed(1)} |`,
      `| notifications delivered in those ${windowMs / 1000} s (of ${due}) | ${delivered} |`,
      `| node RSS before / peak (MB) | ${rssBefore.toFixed(1)} / ${rssPeak.toFixed(1)} |`,
    ];
  } finally {
    for (const sub of subs) sub.ws.terminate();
    client.close();
    child.kill('SIGTERM');
  }
}

/** Both rows as markdown. */
export async function soakSubscribers(startCli: StartCli, rssMb: Rss): Promise<string> {
  log('soak: a paused newHeads subscriber over 100,000 blocks');
  const paused = await pausedSubscriber(startCli, rssMb, 100_000);
  log('soak: 2,000 newHeads subscriptions notified of 20,000 blocks');
  const many = await manySubscriptions(startCli, rssMb, 2000, 20_000, 10_000);
  return [...paused, '', ...many].join('\n');
}
