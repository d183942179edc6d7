// How to start, reach, measure and stop each tool under test. Every CLI gets
// its own free loopback port, the shared mnemonic and chain id 1337, and its
// quietest logging so console output does not skew the figures.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anvilBinary } from './anvil.js';
import { loadHardhat, newHardhatNetwork } from './hardhatInproc.js';
import { asQuantity, httpClient, providerClient, type Eip1193Provider, type RpcClient } from './rpc.js';

export const MNEMONIC = 'test test test test test test test test test test test junk';
export const CHAIN_ID = 1337n;

export const TARGET_NAMES = ['chain-sim', 'chain-sim-inproc', 'ganache', 'hardhat', 'hardhat-inproc', 'anvil'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface Running {
  readonly client: RpcClient;
  /** The server's address (undefined in-process), for clients of other settings (bench/reliability.ts). */
  readonly url?: string;
  /** Spawn (or createProvider) until the first successful eth_chainId. */
  readonly startupMs: number;
  /** Resident set size of the server process in MB; undefined in-process. */
  rssMb(): number | undefined;
  stop(): Promise<void>;
}

export interface Target {
  readonly name: TargetName;
  start(): Promise<Running>;
}

/** Thrown when a target cannot run here at all (not built yet, binary missing); the run skips it. */
export class TargetUnavailable extends Error {}

// dist/bench/targets.js -> repository root.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 3_000;

// Children are tracked so an interrupted or crashing bench never leaves a server behind.
const live = new Set<ChildProcess>();
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function expectChainId(client: RpcClient): Promise<void> {
  const id = asQuantity('eth_chainId', await client.request('eth_chainId'));
  if (id !== CHAIN_ID) throw new Error(`chain id is ${id}, expected ${CHAIN_ID}`);
}

interface SpawnSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

async function spawnServer(name: string, port: number, spec: SpawnSpec): Promise<Running> {
  const url = `http://127.0.0.1:${port}/`;
  // Fresh connection per probe: a keep-alive agent could hold a half-open socket from a refused attempt.
  const probe = httpClient(url, { timeoutMs: 2_000, keepAlive: false });
  const started = performance.now();
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd ?? ROOT,
    env: spec.env ?? process.env,
    // stdout ignored: an unread pipe would eventually block a chatty server.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  live.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-2_000);
  });
  let exited: string | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    // 'close' rather than 'exit': it waits for stderr to drain, so start-up failures quote it whole.
    child.on('close', (code, signal) => {
      exited = `exited with ${signal ?? `code ${code}`}`;
      live.delete(child);
      resolve();
    });
    child.on('error', (error) => {
      exited = `failed to spawn: ${error.message}`;
      live.delete(child);
      resolve();
    });
  });

  const stop = async (): Promise<void> => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exitPromise;
      clearTimeout(timer);
    }
  };

  let startupMs: number | undefined;
  try {
    while (startupMs === undefined) {
      if (exited !== undefined) {
        throw new TargetUnavailable(`${exited}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
      }
      if (performance.now() - started > STARTUP_TIMEOUT_MS) {
        await stop();
        throw new Error(`${name} did not answer eth_chainId within ${STARTUP_TIMEOUT_MS} ms`);
      }
      try {
        await probe.request('eth_chainId');
        startupMs = performance.now() - started;
      } catch {
        await sleep(5);
      }
    }
  } finally {
    probe.close();
  }

  const client = httpClient(url);
  try {
    await expectChainId(client);
  } catch (error) {
    client.close();
    await stop();
    throw error;
  }
  return {
    client,
    url,
    startupMs,
    rssMb: () => (child.pid === undefined ? undefined : readRssMb(child.pid)),
    async stop() {
      client.close();
      await stop();
    },
  };
}

/** VmRSS from /proc: the spawned process is the server itself (no npx/shell wrapper in between). */
export function readRssMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function requireFile(file: string): string {
  const shown = file.startsWith(ROOT + path.sep) ? path.relative(ROOT, file) : file;
  if (!existsSync(file)) throw new TargetUnavailable(`${shown} not found`);
  return file;
}

function cliTarget(name: TargetName, spec: (port: number) => SpawnSpec): Target {
  return {
    name,
    async start() {
      const port = await freePort();
      return spawnServer(name, port, spec(port));
    },
  };
}

export interface TargetOptions {
  /** Scratch directory for the run (hardhat needs a project directory with a config). */
  tmpDir: string;
}

export function makeTargets(options: TargetOptions): Record<TargetName, Target> {
  return {
    'chain-sim': cliTarget('chain-sim', (port) => ({
      command: process.execPath,
      args: [requireFile(path.join(ROOT, 'bin', 'chain-sim.js')), '--host', '127.0.0.1', '--port', String(port), '--quiet'],
    })),

    'chain-sim-inproc': {
      name: 'chain-sim-inproc',
      async start() {
        const entry = requireFile(path.join(ROOT, 'dist', 'src', 'index.js'));
        // Import time is excluded on purpose: it is paid once per test process, not per provider.
        const module: unknown = await import(new URL(`file://${entry}`).href);
        const createProvider = typeof module === 'object' && module !== null && 'createProvider' in module ? module.createProvider : undefined;
        if (typeof createProvider !== 'function') {
          throw new TargetUnavailable('dist/src/index.js does not export createProvider');
        }
        const started = performance.now();
        const provider = (createProvider as () => Eip1193Provider)();
        const client = providerClient(provider);
        await expectChainId(client);
        const startupMs = performance.now() - started;
        return { client, startupMs, rssMb: () => undefined, stop: async () => client.close() };
      },
    },

    ganache: cliTarget('ganache', (port) => ({
      command: process.execPath,
      args: [
        requireFile(path.join(ROOT, 'node_modules', 'ganache', 'dist', 'node', 'cli.js')),
        '--server.host',
        '127.0.0.1',
        '--server.port',
        String(port),
        '--wallet.mnemonic',
        MNEMONIC,
        '--chain.chainId',
        String(CHAIN_ID),
        '--logging.quiet',
      ],
    })),

    hardhat: cliTarget('hardhat', (port) => ({
      command: process.execPath,
      args: [
        requireFile(path.join(ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js')),
        '--config',
        hardhatProject(options.tmpDir),
        'node',
        '--hostname',
        '127.0.0.1',
        '--port',
        String(port),
      ],
      cwd: options.tmpDir,
      // Non-TTY stdout already suppresses hardhat's banner fetch; this also rules out the telemetry prompt.
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    })),

    // Hardhat 2's in-process network, the peer of chain-sim-inproc. Start-up is measured like
    // chain-sim-inproc's: loading Hardhat (once per process, as a test run does) is excluded;
    // timed is creating a new network provider with Hardhat's createProvider up to its first
    // eth_chainId answer (EDR builds its chain on that first request). Each start is a new
    // provider, not a hardhat_reset of the last one, so every start-up sample pays the same.
    'hardhat-inproc': {
      name: 'hardhat-inproc',
      async start() {
        requireFile(path.join(ROOT, 'node_modules', 'hardhat', 'package.json'));
        const config = hardhatProject(options.tmpDir);
        loadHardhat(config);
        const started = performance.now();
        const client = providerClient(await newHardhatNetwork(config));
        await expectChainId(client);
        const startupMs = performance.now() - started;
        // Nothing to close: the provider runs nothing on its own and is collected once dropped.
        return { client, startupMs, rssMb: () => undefined, stop: async () => client.close() };
      },
    },

    anvil: cliTarget('anvil', (port) => ({
      // The platform binary directly (the wrapper package relies on a postinstall step).
      command: requireFile(anvilBinary(ROOT)),
      args: ['--host', '127.0.0.1', '--port', String(port), '--mnemonic', MNEMONIC, '--chain-id', String(CHAIN_ID), '--silent'],
    })),
  };
}

/** Writes a minimal hardhat project into tmpDir (idempotent) and returns its config path. */
export function hardhatProject(tmpDir: string): string {
  const config = path.join(tmpDir, 'hardhat.config.cjs');
  if (!existsSync(config)) {
    // loggingEnabled:false is hardhat's equivalent of the other tools' quiet flags.
    const hardhatNetwork = { chainId: Number(CHAIN_ID), accounts: { mnemonic: MNEMONIC }, loggingEnabled: false };
    writeFileSync(config, `module.exports = ${JSON.stringify({ networks: { hardhat: hardhatNetwork } }, null, 2)};\n`);
    // Hardhat refuses to run unless it resolves itself from the project directory.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmpDir, 'node_modules'), 'dir');
  }
  return config;
}
