/**
 * The upstream's answers about what lies at or below the pinned block (its history, its state at
 * older blocks, its traces), kept by request: they cannot change, so each request is sent once in
 * the life of the process, and the disk cache (diskCache.ts) keeps them for the next run. A failed
 * request is not kept, so the next read tries again.
 */
import type { Upstream } from './upstream.js';

export class UpstreamAnswers {
  constructor(
    /** The upstream now (anvil_setRpcUrl moves it; what was kept stays). */
    private readonly upstream: () => Upstream,
    /** Answers by request (`[method, params]` as JSON); the disk cache saves this map. */
    readonly kept: Map<string, unknown> = new Map(),
    /** Called when an answer was added (the disk cache schedules a save). */
    private readonly onKept: () => void = () => {},
  ) {}

  /** The upstream as it may be printed (credentials masked). */
  get upstreamName(): string {
    return this.upstream().masked;
  }

  /** The upstream's answer to `method` with `params`, asked at most once. `what` names it in errors. */
  ask(method: string, params: readonly unknown[], what = JSON.stringify(params).slice(1, -1)): Promise<unknown> {
    const key = JSON.stringify([method, params]);
    if (this.kept.has(key)) return Promise.resolve(this.kept.get(key));
    return this.upstream()
      .request(method, params, what)
      .then((answer) => {
        this.kept.set(key, answer);
        this.onKept();
        return answer;
      });
  }
}
