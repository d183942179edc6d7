import { createAddressFromString } from '@ethereumjs/util';
import { expect } from 'chai';
import { LATEST, ReentryError } from '../../src/engine/chain.js';
import type { ExecutionTracer } from '../../src/engine/tracers/tracing.js';
import { ADDRESSES, newNode, signed } from '../helpers/chain.js';

const FIRST = createAddressFromString(ADDRESSES[0]!);

/** Settles within `ms` or fails the test: a re-entered queue would hang instead. */
function within<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms: a hang`)), ms))]);
}

describe("the chain's queue refuses re-entry instead of hanging", () => {
  it('a queued call awaited from inside a task fails at once with a ReentryError naming it', async () => {
    const { provider } = newNode();
    const { chain } = await provider.ready();
    const error = await within(
      chain
        .inspect(() => chain.getBalance(FIRST, LATEST))
        .then(
          () => undefined,
          (e: unknown) => e,
        ),
    );
    expect(error).to.be.instanceOf(ReentryError);
    expect((error as Error).message).to.match(/^internal error: getBalance was queued from inside a task of the chain's queue/);
    // The queue is not wedged: the next call runs.
    expect((await within(chain.getBalance(FIRST, LATEST))) > 0n).to.equal(true);
  });

  it('a tracer runs outside the queue (work on the past is detached): a queued call it makes runs, neither refused nor hung', async () => {
    const { provider, rpc } = newNode();
    const { chain } = await provider.ready();
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: ADDRESSES[1], nonce: 0, value: 1 })]);
    let inner: Promise<bigint> | undefined;
    const tracer: ExecutionTracer = {
      attach: () => {
        inner = chain.getBalance(FIRST, LATEST);
        return () => {};
      },
    };
    await within(chain.traceTransaction(hash, tracer));
    expect(inner).to.not.equal(undefined);
    expect((await within(inner!)) > 0n).to.equal(true);
  });

  it('an event listener a task triggers is not part of the task: its queued calls run after it', async () => {
    const { provider, rpc } = newNode();
    const { chain } = await provider.ready();
    await chain.configure({ emptyBlocks: 'vm' }); // evm_mine's empty block as a 'block' event, not a reservation
    const seen: Array<Promise<bigint>> = [];
    chain.on('block', () => seen.push(chain.getTransactionCount(FIRST, LATEST)));
    await rpc('eth_sendRawTransaction', [await signed(0, { to: ADDRESSES[1], nonce: 0, value: 1 })]);
    await rpc('evm_mine');
    expect(await within(Promise.all(seen))).to.deep.equal([1n, 1n]);
  });

  it('calls made while a task awaits (other requests) are queued, not refused', async () => {
    const { provider } = newNode();
    const { chain } = await provider.ready();
    // mineMany yields to the event loop between blocks ('vm': every block through the VM).
    await chain.configure({ emptyBlocks: 'vm' });
    const mining = chain.mineMany(5n);
    const between = new Promise<bigint>((resolve, reject) => setImmediate(() => chain.getBalance(FIRST, LATEST).then(resolve, reject)));
    await within(mining);
    expect((await within(between)) > 0n).to.equal(true);
    expect(chain.head.number).to.equal(5n);
  });
});
