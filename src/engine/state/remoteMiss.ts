/**
 * A read of a forked chain's upstream that a task of the chain's queue must not wait for
 * (docs/architecture.md, "Remote reads are awaited outside the queue"). While a task that can
 * be run again holds the queue, the fork's state manager (forkState.ts) does not await a value
 * the upstream has not sent yet: it starts the fetch and throws this. Every layer between the
 * state manager and the task lets it through as it lets an upstream failure through (the EVM's
 * open frames are unwound, unwind.ts; a block being built is rolled back, blockBuilder.ts), and
 * the facade awaits the fetch after the task, outside the queue, then runs the task again: it
 * finds the value fetched, or fails with the fetch's error.
 */
import { EngineError } from '../util/errors.js';

export class RemoteReadPending extends EngineError {
  /** Settles when the fetch does; its error (an UpstreamError) when the fetch failed, undefined when it succeeded. */
  readonly settled: Promise<Error | undefined>;

  constructor(fetch: Promise<unknown>, what: string) {
    // Kind 'upstream': the layers that pass an upstream failure through pass this too; it never reaches a client.
    super('upstream', `internal error: the upstream read of ${what} was still pending when the task ended`);
    this.name = 'RemoteReadPending';
    this.settled = fetch.then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
  }
}
