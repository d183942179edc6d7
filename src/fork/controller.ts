/**
 * The node's fork, over its life: the session opened at start-up (--fork), resets to other
 * fork points (hardhat_reset / anvil_reset / chain_reset with `forking`), back to the
 * start-up configuration (a reset without parameters), and anvil_setRpcUrl.
 */
import { type Chain, EngineError } from '../engine/index.js';
import { type ForkSession, type ForkSettings, connectFork } from './session.js';
import { upstreamReader } from './postThread.js';
import { Upstream } from './upstream.js';

/** What a reset with `forking` asks for; a missing URL keeps the current upstream. */
export interface ForkRequest {
  readonly url?: string;
  readonly blockNumber?: bigint;
}

export class ForkController {
  /** The open fork session (undefined: the chain is local). */
  session: ForkSession | undefined;

  constructor(
    private readonly chain: Chain,
    /** The session opened at start-up: a reset without parameters goes back to its pinned block. */
    private readonly initial: ForkSession | undefined,
    /** Settings for sessions opened by a reset (cache, timeouts, headers from the command line). */
    private readonly defaults: Omit<ForkSettings, 'url' | 'blockNumber'>,
  ) {
    this.session = initial;
  }

  /** chain_reset: `request` undefined goes back to the start-up configuration. */
  async reset(request: ForkRequest | undefined): Promise<void> {
    if (request === undefined) {
      if (this.session === this.initial) return this.chain.reset();
      this.closeSession();
      this.session = this.initial;
      return this.chain.reset({ fork: this.initial?.point });
    }
    if (request.url === undefined && this.session?.offline)
      throw new EngineError('invalidInput', `forking.jsonRpcUrl is required: this fork of ${this.session.upstream.masked} was restored without its upstream`);
    const url = request.url ?? this.session?.settings.url;
    if (url === undefined) throw new EngineError('invalidInput', 'forking.jsonRpcUrl is required: this chain is not forking');
    const settings: ForkSettings = {
      ...this.defaults,
      ...(this.session && request.url === undefined ? { headers: this.session.settings.headers } : {}),
      url,
      blockNumber: request.blockNumber,
    };
    const session = await connectFork(settings); // a failure leaves the chain as it was
    if (this.session !== this.initial) this.closeSession();
    this.session = session;
    await this.chain.reset({ fork: session.point });
  }

  /** anvil_setRpcUrl: later upstream requests go to `url` (same pinned block; what was fetched stays). */
  setRpcUrl(url: string): void {
    const session = this.session;
    if (!session) throw new EngineError('unsupported', 'anvil_setRpcUrl: this chain is not forking (start with --fork URL)');
    // A fork restored offline (savedFork.ts) gets a real upstream from now on.
    if (session.offline) (session as { offline?: boolean }).offline = false;
    const upstream = new Upstream({ ...session.settings, url });
    session.state.upstream = upstream;
    (session as { upstream: Upstream }).upstream = upstream;
    (session as { settings: ForkSettings }).settings = { ...session.settings, url };
  }

  /** Save what the disk caches have not saved yet, and end the upstream reading thread once idle. */
  close(): void {
    this.session?.cache?.save();
    if (this.initial !== this.session) this.initial?.cache?.save();
    if (this.initial || this.session) upstreamReader.closeWhenIdle();
  }

  private closeSession(): void {
    this.session?.cache?.save();
  }
}
