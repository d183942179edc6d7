/**
 * `npx chain-sim` runs as npm exec → sh → node. A signal sent to the npx process (what
 * start-server-and-test, concurrently, a cancelled CI job or `kill $!` send) ends npm and its
 * shell but never reaches the node, which is left running, reparented, holding the port and
 * never saving its --state file. So when the node was started by npm (directly or through
 * npm's script shell), it watches those processes and shuts down, as on SIGTERM, once one of
 * them is gone.
 *
 * SIGINT sent to npm alone ends nothing: npm passes it to its script shell, which catches it
 * and keeps waiting for the node. On Linux the shell's catch is still visible: it wakes up (its
 * count of voluntary context switches grows) while it should be asleep in wait(). The only
 * other signals that wake it are the SIGCHLDs of this node being stopped and continued, which
 * this node sees as its own SIGCONT; a wake-up without one is taken as the interrupt.
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

/** Linux: how many times `pid` has gone to sleep (voluntary context switches); undefined elsewhere or once unreadable. */
function sleepsOf(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const match = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Why the watch ended: a watched process is gone, or npm's script shell was interrupted (SIGINT to npm). */
export type LauncherEnd = 'gone' | 'interrupted';

/**
 * Calls `onGone` once, soon after any of `pids` ends (or this process is reparented), or when
 * `pids[0]`, if it is npm's script shell (`shell`), catches a signal (see the top of the file).
 * Returns a function that stops watching. The timer never keeps the process alive by itself.
 */
export function watchLauncher(pids: number[], onGone: (why: LauncherEnd) => void, intervalMs = LAUNCHER_POLL_MS, shell?: number): () => void {
  const watched: Watched[] = pids.map((pid) => ({ pid, started: processInfo(pid)?.started }));
  const parent = process.ppid;
  let sleeps = shell === undefined ? undefined : sleepsOf(shell);
  // A wake-up is acted on only at the next check, and only if no SIGCONT came meanwhile: our
  // own stop and continue wake the shell too, and the SIGCONT may be handled after the timer.
  let suspect = false;
  let continued = false;
  const onContinue = () => {
    continued = true;
  };
  if (sleeps !== undefined) process.on('SIGCONT', onContinue);
  const stop = () => {
    clearInterval(timer);
    process.off('SIGCONT', onContinue);
  };
  const timer = setInterval(() => {
    const reparented = currentParent();
    if ((reparented !== undefined && reparented !== parent) || watched.some(gone)) {
      stop();
      onGone('gone');
      return;
    }
    if (sleeps === undefined) return;
    const now = sleepsOf(shell!);
    if (now === undefined) return;
    if (now === sleeps && !suspect) {
      continued = false;
      return;
    }
    if (continued) {
      // Woken by our own stop and continue: start counting from here.
      sleeps = now;
      suspect = false;
      continued = false;
    } else if (suspect) {
      stop();
      onGone('interrupted');
    } else suspect = true;
  }, intervalMs);
  timer.unref();
  return stop;
}
