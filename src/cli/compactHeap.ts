/**
 * A smaller V8 heap for the `chain-sim` server process. Only the CLI calls this: a provider
 * inside someone's test process leaves their V8 settings alone.
 *
 * Under a node's allocation rate V8 grows the young generation to two 16 MB semi-spaces and
 * lets the old generation reach 2-4x its live size before collecting it: 216 MiB resident
 * after the benchmark's workloads for 25 MB of live data. Growing the old generation by
 * 10% at a time and stopping the semi-spaces at 4 MB brought that to 113-122 MiB, with
 * the same CPU time for the workloads (alternating runs; 1 MB semi-spaces cost 10%).
 *
 * Node accepts --max-semi-space-size only on its command line, which a bin script cannot
 * pass portably. So after each collection the growth factor is set so that the next growth
 * lands on the cap (1 once there, which start-up already reaches; V8 may shrink the space
 * while idle). Where V8 ignores these flags at run time, the heap is V8's default.
 */
const OLD_GENERATION_GROWTH_PERCENT = 10;
const SEMI_SPACE_CAP_BYTES = 4 * 2 ** 20;

export async function useCompactHeap(): Promise<void> {
  // Loaded here, after the server answers: node:v8 alone costs ~3 ms of the CLI's start-up.
  const [{ default: v8 }, { PerformanceObserver }] = await Promise.all([import('node:v8'), import('node:perf_hooks')]);
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  let factor = 0;
  const limitGrowth = (): void => {
    const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (!newSpace) return;
    // One semi-space's usable size (space_size counts the second only once it is in use).
    const semiSpace = newSpace.space_used_size + newSpace.space_available_size;
    const next = Math.max(1, Math.floor(SEMI_SPACE_CAP_BYTES / Math.max(semiSpace, 1)));
    if (next === factor) return;
    factor = next;
    v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  };
  limitGrowth();
  // After collections, when the young generation may have grown: never on the request path.
  new PerformanceObserver(limitGrowth).observe({ entryTypes: ['gc'] });
}
