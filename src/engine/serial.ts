/**
 * Runs async tasks one at a time, in arrival order. Every operation that reads or
 * writes chain state goes through one queue, so a reader never observes a block
 * half-applied and two writers never interleave.
 */
interface Job {
  readonly task: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class SerialQueue {
  /** Tasks queued by the running task with runNext: they go before everything waiting. */
  private readonly next: Job[] = [];
  private readonly waiting: Job[] = [];
  private draining = false;

  /**
   * @param settle called after each task; a promise it returns (which must not reject) is awaited
   * before the task's caller sees the result (the console.log lines a transaction printed come
   * before its answer).
   */
  constructor(private readonly settle?: () => Promise<void> | undefined) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.enqueue(this.waiting, task);
  }

  /**
   * From inside a task: run `task` right after it, before the tasks already waiting, so that
   * its effects come where the current task's answer says they are.
   */
  runNext<T>(task: () => Promise<T>): Promise<T> {
    return this.enqueue(this.next, task);
  }

  private enqueue<T>(lane: Job[], task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      lane.push({ task, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // Started in a microtask, as a promise chain would: the caller's synchronous code runs first.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    for (let job = this.take(); job; job = this.take()) {
      let failed = false;
      let outcome: unknown;
      try {
        outcome = await job.task();
      } catch (error) {
        failed = true;
        outcome = error;
      }
      const settling = this.settle?.();
      if (settling) await settling;
      if (failed) job.reject(outcome);
      else job.resolve(outcome);
    }
    this.draining = false;
  }

  private take(): Job | undefined {
    return this.next.shift() ?? this.waiting.shift();
  }
}
