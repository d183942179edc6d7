/**
 * Runs async tasks one at a time, in arrival order. Every operation that reads or
 * writes chain state goes through one queue, so a reader never observes a block
 * half-applied and two writers never interleave.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
