/**
 * `npx chain-sim` runs as npm exec → sh → node. A signal sent to the npx process (what
 * start-server-and-test, concurrently, a cancelled CI job or `kill $!` send) ends npm and its
 * shell but never reaches the node, which is left running, reparented, holding the port and
 * never saving its --state file. So when the node was started by npm (directly or through
 * npm's script shell), it watches those processes and shuts down, as on SIGTERM, once one of
 * them is gone.
 *
 * Only the chain up to the nearest npm process is watched, never that process's own parent:
 * `nohup npx chain-sim &` or `setsid npx chain-sim` followed by the shell exiting leaves npm
 * running, so the node keeps running too; `nohup node bin/chain-sim.js &` has no npm above it
 * and is never watched. `--no-exit-with-launcher` turns the watch off.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** A process being watched: its pid and, on Linux, its start time (so a reused pid is not mistaken for it). */
interface Watched {
  readonly pid: number;
  readonly started: string | undefined;
}

interface ProcessInfo {
  readonly ppid: number;
  /** argv as the process shows it now (npm rewrites its title to "npm exec chain-sim ..."). */
  readonly args: string[];
  readonly started: string | undefined;
  readonly alive: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ash', 'ksh', 'mksh']);
/** How often the launcher is checked: a shutdown starts within this of its end. */
export const LAUNCHER_POLL_MS = 250;

/** Linux: from /proc; elsewhere (macOS, BSD): from ps; undefined when the process cannot be read. */
function processInfo(pid: number): ProcessInfo | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid ..." where comm may itself contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((arg) => arg !== '');
      return { ppid: Number(fields[1]), args, started: fields[19], alive: fields[0] !== 'Z' && fields[0] !== 'X' };
    } catch {
      return undefined;
    }
  }
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const match = /^(\d+)\s+(.*)$/.exec(line);
    return match ? { ppid: Number(match[1]), args: match[2]!.split(/\s+/), started: undefined, alive: true } : undefined;
  } catch {
    return undefined;
  }
}

function isNpm(args: string[], env: NodeJS.ProcessEnv): boolean {
  const [first = ''] = args;
  // npm sets its title to "npm exec ..." / "npm run ..." (one argv string or split, depending on the platform).
  if (/^np[mx]( |$)/.test(first) || ['npm', 'npx'].includes(basename(first))) return true;
  return args.some((arg) => (env.npm_execpath !== undefined && arg === env.npm_execpath) || /np[mx]-cli\.js$/.test(arg));
}

function isShell(args: string[]): boolean {
  return SHELLS.has(basename(args[0] ?? '').replace(/^-/, ''));
}

/**
 * The processes between this node and the npm process that started it (npm included), or
 * undefined when no npm process started it: its parent must be npm, or npm's script shell
 * whose parent is npm. Anything else above the node (a test runner, a user's script) is not
 * a launcher whose end should stop it.
 */
export function findNpmLauncher(env: NodeJS.ProcessEnv = process.env): number[] | undefined {
  if (process.platform === 'win32') return undefined;
  // npm exports these to what it runs; without them there is no npm above us to look for.
  if (env.npm_execpath === undefined && env.npm_command === undefined && env.npm_lifecycle_event === undefined) return undefined;
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 2 && pid > 1; depth++) {
    const info = processInfo(pid);
    if (!info) return undefined;
    chain.push(pid);
    if (isNpm(info.args, env)) return chain;
    if (!isShell(info.args)) return undefined;
    pid = info.ppid;
  }
  return undefined;
}

/** Our parent now (Linux reads it fresh; Node's process.ppid is fixed at start). */
function currentParent(): number | undefined {
  return process.platform === 'linux' ? processInfo(process.pid)?.ppid : undefined;
}

function gone(watched: Watched): boolean {
  if (process.platform === 'linux') {
    const info = processInfo(watched.pid);
    return !info?.alive || info.started !== watched.started;
  }
  try {
    process.kill(watched.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Calls `onGone` once, soon after any of `pids` ends (or this process is reparented). Returns
 * a function that stops watching. The timer never keeps the process alive by itself.
 */
export function watchLauncher(pids: number[], onGone: () => void, intervalMs = LAUNCHER_POLL_MS): () => void {
  const watched: Watched[] = pids.map((pid) => ({ pid, started: processInfo(pid)?.started }));
  const parent = process.ppid;
  const timer = setInterval(() => {
    const reparented = currentParent();
    if ((reparented !== undefined && reparented !== parent) || watched.some(gone)) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
