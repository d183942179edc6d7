/**
 * Runs async tasks one at a time, in arrival order. Every operation that reads or
 * writes chain state goes through one queue, so a reader never observes a block
 * half-applied and two writers never interleave.
 *
 * The queue cannot be re-entered: a task that queued another task with `run` and waited for
 * it would wait for itself forever. The queue knows when code of a task is running (`running`:
 * the synchronous start of every task), and the chain facade refuses a queued call then, with a
 * ReentryError. See docs/architecture.md.
 *
 * Between two tasks it lets the event loop turn once a few ms of work went by (pace.ts), so a
 * long line of queued calls does not keep other clients' requests unread.
 */

import { pace } from './pace.js';

/** A queued call made from inside a running task: it would wait for that task, which waits for it. */
export class ReentryError extends Error {
  constructor(what: string) {
    super(`internal error: ${what} was queued from inside a task of the chain's queue, which would wait for itself forever`);
    this.name = 'ReentryError';
  }
}

interface Job {
  readonly task: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class SerialQueue {
  /** Tasks queued by the running task with runNext: they go before everything waiting. */
  private readonly next: Job[] = [];
  private readonly waiting: Job[] = [];
  private draining = false;
  /** True while code of a task runs synchronously (its start); false across its awaits. */
  private inTask = false;

  /** Queue `task` behind everything waiting. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    return this.enqueue(this.waiting, task);
  }

  /** True while code of a task runs synchronously: a queued call awaited here would never run. */
  get running(): boolean {
    return this.inTask;
  }

  /** Run `fn`, which is not part of the task that calls it (event listeners), outside it. */
  outsideTask<T>(fn: () => T): T {
    const was = this.inTask;
    this.inTask = false;
    try {
      return fn();
    } finally {
      this.inTask = was;
    }
  }

  /**
   * From inside a task: run `task` right after it, before the tasks already waiting, so that
   * its effects come where the current task's answer says they are.
   */
  runNext<T>(task: () => T | Promise<T>): Promise<T> {
    return this.enqueue(this.next, task);
  }

  private enqueue<T>(lane: Job[], task: () => T | Promise<T>): Promise<T> {
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
      // A long line of short tasks (a batch, a loop of calls) lets the event loop turn every few
      // ms (pace.ts); the job is taken first, so work queued behind an answer still comes next.
      const turn = pace();
      if (turn !== undefined) await turn;
      let failed = false;
      let outcome: unknown;
      try {
        // The task's synchronous start is part of the task; at its first await the flag drops,
        // since whatever runs until it resumes (other requests, timers) is not.
        this.inTask = true;
        let running: unknown;
        try {
          running = job.task();
        } finally {
          this.inTask = false;
        }
        outcome = await running;
      } catch (error) {
        failed = true;
        outcome = error;
      }
      if (failed) job.reject(outcome);
      else job.resolve(outcome);
    }
    this.draining = false;
  }

  private take(): Job | undefined {
    return this.next.shift() ?? this.waiting.shift();
  }
}
