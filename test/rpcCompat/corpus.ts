/**
 * The recorded go-ethereum exchanges of ethereum/execution-apis (tests/<method>/<case>.io):
 * where to find them, and how to read them. The files are not part of this repository (they
 * are fetched data): they are read from CHAIN_SIM_RPC_COMPAT_DIR, else from
 * ../shared/execution-apis/tests beside the clone (docs/rpc-compat.md).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from dist/test/rpcCompat/ (compiled) or test/rpcCompat/ (source). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), fileURLToPath(import.meta.url).includes('/dist/') ? '../../..' : '../..');

export interface CorpusLocation {
  /** The folder holding genesis.json, chain.rlp and one folder per method; undefined when none was found. */
  readonly dir: string | undefined;
  /** Every place looked, in order, for the pending message. */
  readonly looked: readonly string[];
}

export function locateCorpus(env: NodeJS.ProcessEnv = process.env): CorpusLocation {
  const candidates = [...(env.CHAIN_SIM_RPC_COMPAT_DIR ? [resolve(env.CHAIN_SIM_RPC_COMPAT_DIR)] : []), resolve(REPO_ROOT, '../shared/execution-apis/tests')];
  const dir = candidates.find((candidate) => existsSync(join(candidate, 'genesis.json')) && existsSync(join(candidate, 'chain.rlp')));
  return {
    dir,
    looked: candidates.map((candidate) =>
      env.CHAIN_SIM_RPC_COMPAT_DIR && candidate === resolve(env.CHAIN_SIM_RPC_COMPAT_DIR) ? `${candidate} (CHAIN_SIM_RPC_COMPAT_DIR)` : candidate,
    ),
  };
}

export interface Message {
  /** true for a request (>>), false for an expected answer (<<). */
  readonly send: boolean;
  /** The raw JSON text, as sent or recorded. */
  readonly text: string;
}

export interface CorpusCase {
  /** `<method folder>/<file name without .io>`, the name hive and known-failures.txt use. */
  readonly path: string;
  readonly method: string;
  readonly comment: string;
  /** "speconly:" cases: the answer is one valid example, checked against the spec's schema by hive. */
  readonly specOnly: boolean;
  readonly messages: readonly Message[];
}

/** Parse one .io file as hive's rpc-compat simulator does (testload.go): comments only before the first exchange. */
export function parseCase(path: string, text: string): CorpusCase {
  let comment = '';
  let specOnly = false;
  let inHeader = true;
  const messages: Message[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('//')) {
      if (!inHeader) continue;
      const body = line.slice(2).replace(/^ /, '');
      comment += `${body}\n`;
      if (body.startsWith('speconly:')) specOnly = true;
    } else if (line.startsWith('>>') || line.startsWith('<<')) {
      inHeader = false;
      const data = line.slice(2).trim();
      JSON.parse(data); // a malformed file is the corpus' fault: say so loudly
      messages.push({ send: line.startsWith('>>'), text: data });
    } else {
      throw new Error(`${path}: invalid test line ${JSON.stringify(line.slice(0, 80))}`);
    }
  }
  return { path, method: path.split('/')[0]!, comment, specOnly, messages };
}

/** Every case, in the order hive walks them (folders and files sorted by name, byte order). */
export function loadCorpus(dir: string): CorpusCase[] {
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const cases: CorpusCase[] = [];
  for (const folder of readdirSync(dir).sort(byName)) {
    const folderPath = join(dir, folder);
    if (!statSync(folderPath).isDirectory()) continue;
    for (const file of readdirSync(folderPath).sort(byName)) {
      if (!file.endsWith('.io')) continue;
      cases.push(parseCase(`${folder}/${file.slice(0, -'.io'.length)}`, readFileSync(join(folderPath, file), 'utf8')));
    }
  }
  return cases;
}

/** known-failures.txt: one case path a line, `#` comments and blank lines ignored. */
export function readKnownFailures(file = join(REPO_ROOT, 'test/rpcCompat/known-failures.txt')): Set<string> {
  if (!existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter((line) => line !== ''),
  );
}
