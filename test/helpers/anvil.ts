/** Anvil from npm (bench/anvil.ts fetches it) as a process for differential tests; tests skip when there is none. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { anvilBinary } from '../../bench/anvil.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningAnvil {
  readonly url: string;
  stop(): void;
}

/** The binary, or undefined (with the reason printed) when it cannot be had: the caller skips. */
export function findAnvil(): string | undefined {
  try {
    return anvilBinary(ROOT);
  } catch (error) {
    console.warn(`skipping: no Anvil binary (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

/** Start Anvil on a free port of 127.0.0.1 with `args`; resolves once it listens. */
export function startAnvil(binary: string, args: readonly string[]): Promise<RunningAnvil> {
  const child: ChildProcess = spawn(binary, ['--port', '0', '--host', '127.0.0.1', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<RunningAnvil>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`anvil did not start:\n${output}`));
    }, 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', read);
        child.stdout!.resume(); // keep draining its log
        resolve({ url: `http://${match[1]}`, stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with ${code}:\n${output}`));
    });
  });
}

export interface JsonRpcAnswer {
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** One JSON-RPC request over HTTP: the whole answer (result or error). */
export async function call(url: string, method: string, params: unknown[] = []): Promise<JsonRpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as JsonRpcAnswer;
}

/** The result, or a thrown error with the node's message. */
export async function result<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = await call(url, method, params);
  if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result as T;
}

/** Anvil answers a send before its block is mined: wait for the receipt. */
export async function minedReceipt(url: string, hash: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const receipt = await result<Record<string, unknown> | null>(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not mine ${hash}`);
}
