/**
 * go-ethereum's eth_simulateV1 numbers logs as its tracer sees them emitted (logtracer.go): one
 * count per simulated block, advanced by every LOG, also by those a reverted frame then drops.
 * The receipt keeps only surviving logs, so their block-wide indexes are taken at emission: the
 * interpreter's log method reports each new log to the EVM it runs in, if something listens.
 */
import { type Interpreter, replaceInterpreterMethod } from './interpreterPrototype.js';

const listeners = new WeakMap<object, (log: object) => void>();

/** Once per process, with the other interpreter changes (chain.ts); inert for EVMs nobody numbers. */
export function installLogNumbering(): Promise<void> {
  return replaceInterpreterMethod(
    'log',
    (original) =>
      function (this: Interpreter, data: Uint8Array, numberOfTopics: number, topics: Uint8Array[]): void {
        original.call(this, data, numberOfTopics, topics);
        const listener = listeners.get(this._evm);
        if (listener) listener(this._result.logs[this._result.logs.length - 1]!);
      },
  );
}

/** Block-wide log numbers for one simulated block: attach to its EVM, then look up each receipt log. */
export class LogNumbers {
  private next = 0;
  private readonly numbers = new WeakMap<object, number>();

  /** Number the logs `evm` emits until the returned function is called. */
  attach(evm: object): () => void {
    listeners.set(evm, (log) => this.numbers.set(log, this.next++));
    return () => listeners.delete(evm);
  }

  /** The log's number at emission; a log not seen emitted (a system log) takes the next one. */
  numberOf(log: object): number {
    const known = this.numbers.get(log);
    if (known !== undefined) return known;
    const number = this.next++;
    this.numbers.set(log, number);
    return number;
  }
}
