/**
 * Runs async tasks one at a time, in arrival order. Every operation that reads or
 * writes chain state goes through one queue, so a reader never observes a block
 * half-applied and two writers never interleave.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * @param settle called after each task; a promise it returns is awaited before the task's
   * caller sees the result (the console.log lines a transaction printed come before its answer).
   */
  constructor(private readonly settle?: () => Promise<void> | undefined) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    const settle = this.settle;
    const body = settle
      ? async () => {
          try {
            return await task();
          } finally {
            const pending = settle();
            if (pending) await pending;
          }
        }
      : task;
    const result = this.tail.then(body, body);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
