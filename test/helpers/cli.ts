/** Start the real CLI as a child process and wait for its "Listening on URL" line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../../bin/chain-sim.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningCli {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
  /**
   * The output once it contains `expected` (a line a request made the CLI print reaches this
   * process's pipe after the request's answer, later still on a loaded machine); rejects with
   * the output after `timeoutMs`.
   */
  waitForOutput(expected: string, timeoutMs?: number): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The `ganache` command of the Ganache drop-in (chain-sim-ganache links it; chain-sim's own bin map does not). */
export const GANACHE_BIN = fileURLToPath(new URL('../../../bin/ganache.js', import.meta.url));

/**
 * `listening` finds the address in the output: chain-sim's `Listening on URL` by default, Ganache's
 * `RPC Listening on HOST:PORT` for the `ganache` command.
 */
export function startCli(
  args: string[],
  {
    command = process.execPath,
    prefix = [BIN],
    cwd = ROOT,
    listening = /Listening on (http:\/\/\S+)/,
  }: { command?: string; prefix?: string[]; cwd?: string; listening?: RegExp } = {},
): Promise<RunningCli> {
  // Its own process group, so stopping it also stops what a wrapper (npx) started.
  const child = spawn(command, [...prefix, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup('SIGKILL');
      reject(new Error(`CLI did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = () => {
      const match = listening.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        child,
        url: match[1]!.startsWith('http') ? match[1]! : `http://${match[1]}`,
        output: () => output,
        waitForOutput: async (expected, timeoutMs = 10_000) => {
          const deadline = Date.now() + timeoutMs;
          while (!output.includes(expected)) {
            if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(expected)} in the CLI's output within ${timeoutMs} ms:\n${output}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return output;
        },
        stop: async (signal = 'SIGTERM') => {
          signalGroup(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Mocha hooks around the calling suite: exactly the README's `npx chain-sim` (on a free port), running while its tests do. */
export function npxChainSimForSuite(): () => RunningCli {
  let cli: RunningCli | undefined;
  before(async () => {
    cli = await startCli(['chain-sim', '--port', '0'], { command: 'npx', prefix: ['--no-install'] });
  });
  after(async () => {
    await cli?.stop();
  });
  return () => cli!;
}

/** Run the CLI to completion (for flags that exit). */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runNode([BIN, ...args]);
}

/** Run a Node script to completion, from the project root unless `cwd` says otherwise. */
export function runNode(
  args: string[],
  { cwd = ROOT, env }: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: env && { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
