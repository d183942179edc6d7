/**
 * Mocha integration: `mocha --require chain-sim/mocha` starts one in-process provider
 * per Mocha process (so per worker under --parallel) and isolates every test with a
 * snapshot before and a revert after, so tests cannot leak state into each other.
 *
 *   import { provider, loadFixture } from 'chain-sim/mocha';
 *
 * Options for the provider come from the CHAIN_SIM_OPTIONS environment variable (JSON).
 */
import type { MinedBlock } from './engine/blocks/blocks.js';
import type { ChainSnapshot } from './engine/state/snapshots.js';
import { clip } from './engine/util/clip.js';
import { type ChainSimOptions, OptionError } from './options.js';
import { ChainSimProvider, createProvider } from './provider.js';

let current: ChainSimProvider | undefined;
let isolation: string | undefined;

/** The provider of this Mocha process, built on first use (the root `beforeAll` at the latest). */
export function getProvider(): ChainSimProvider {
  // Not quiet: contracts' console.log lines print in the test output, as under Hardhat.
  current ??= providerFromEnvironment();
  return current;
}

/** A provider with CHAIN_SIM_OPTIONS' options; an option it refuses throws at once, naming the variable it came from. */
function providerFromEnvironment(): ChainSimProvider {
  const options = readOptions();
  try {
    return createProvider(options);
  } catch (error) {
    // The same error (its class and code), told where the option was given.
    if (error instanceof OptionError) error.message = `CHAIN_SIM_OPTIONS: ${error.message}`;
    throw error;
  }
}

/**
 * The provider of this Mocha process, for `import { provider } from 'chain-sim/mocha'` and
 * `const { provider } = require('chain-sim/mocha')` alike. A destructuring require() copies the
 * export once, at load time, before any hook has run; so this is a stand-in that is there from the
 * start and forwards every property to getProvider(), which builds the provider on first use.
 */
export const provider: ChainSimProvider = new Proxy(Object.create(ChainSimProvider.prototype) as ChainSimProvider, {
  get(_target, key) {
    const real = getProvider();
    const value: unknown = Reflect.get(real, key, real);
    return typeof value === 'function' ? value.bind(real) : value;
  },
  has: (_target, key) => Reflect.has(getProvider(), key),
  set: (_target, key, value) => Reflect.set(getProvider(), key, value),
});

function readOptions(): ChainSimOptions {
  const raw = process.env.CHAIN_SIM_OPTIONS;
  if (!raw) return {};
  try {
    return JSON.parse(raw) as ChainSimOptions;
  } catch (error) {
    throw new OptionError('CHAIN_SIM_OPTIONS', `expected a JSON object of options (${clip(error instanceof Error ? error.message : String(error))})`);
  }
}

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    await getProvider().ready();
  },
  async beforeEach(): Promise<void> {
    isolation = (await getProvider().request({ method: 'evm_snapshot' })) as string;
  },
  async afterEach(): Promise<void> {
    if (isolation !== undefined) await getProvider().request({ method: 'evm_revert', params: [isolation] });
    isolation = undefined;
  },
};

interface RecordedFixture {
  readonly before: ChainSnapshot;
  readonly after: ChainSnapshot;
  readonly blocks: readonly MinedBlock[];
  readonly result: unknown;
}

const fixtures = new Map<ChainSimProvider, Map<(...args: never[]) => unknown, RecordedFixture>>();

/**
 * Run `fixture` once and remember the chain it left; later calls from the same starting
 * point (every test, under the per-test isolation) put that chain back without running
 * it again, and return the first run's result. Like Hardhat's loadFixture, pass the same
 * function (not an inline arrow) each time.
 */
export async function loadFixture<T>(fixture: (provider: ChainSimProvider) => Promise<T>, on: ChainSimProvider = getProvider()): Promise<T> {
  const { chain } = await on.ready();
  let recorded = fixtures.get(on);
  if (!recorded) fixtures.set(on, (recorded = new Map()));
  const known = recorded.get(fixture);
  if (known && (await chain.replay(known.before, known.after, known.blocks))) return known.result as T;
  const before = await chain.statePoint();
  const result = await fixture(on);
  const blocks = chain.blocksSince(before);
  if (blocks) recorded.set(fixture, { before, after: await chain.statePoint(), blocks, result });
  return result;
}
