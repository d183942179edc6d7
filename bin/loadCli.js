// Loads the CLI's bundle (dist/bundle/cli.cjs, built by scripts/bundle.mjs) with V8's code cache.
// Node 20 parses and compiles an ES module from scratch on every start: for the 2.6 MB bundle
// that was a third of `npx chain-sim`'s CPU time before it listens. A script compiled by node:vm
// can be given the code V8 compiled on an earlier start (cachedData), so the bundle is CommonJS
// and compiled here. The cache is written next to the bundle on the first start (and again
// when V8 refuses it: another Node version or V8 flags); where that directory is read-only
// every start simply compiles, as before.
import { accessSync, constants, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const BUNDLE = fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url));

/**
 * The cache's file: keyed by the content hash on the bundle's first line (V8 checks a cache
 * against the source's length, not its content, so a rebuilt bundle must not find an old one).
 */
function cacheFileOf(bundle, source) {
  const hash = /^\/\/ chain-sim bundle ([0-9a-f]+)\n/.exec(source)?.[1];
  return hash === undefined ? undefined : `${bundle}.${hash}.cache`;
}

function readCache(file) {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Whether the cache can be written: a read-only install does not pay for serialising one on every start. */
function writable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Write the cache atomically (another start may be reading it), and drop caches of earlier builds. */
function writeCache(bundle, file, data) {
  try {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, data);
    renameSync(partial, file);
    const dir = dirname(bundle);
    const prefix = `${basename(bundle)}.`;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.startsWith(prefix) && name.endsWith('.cache') && path !== file) unlinkSync(path);
    }
  } catch {
    // A read-only install: no cache, every start compiles.
  }
}

/**
 * The bundle's exports (main), whether V8 took the cache (cacheUsed), and `saveCache`: called by
 * the CLI once it listens (before it changes V8's heap flags, which a cache is checked against),
 * it writes the cache, half a second later, if there was none V8 would take. `bundle` is for tests.
 */
export function loadCli(bundle = BUNDLE) {
  const source = readFileSync(bundle, 'utf8');
  const cacheFile = cacheFileOf(bundle, source);
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const cacheUsed = cachedData !== undefined && script.cachedDataRejected === false;
  // The code compiled up to the call (start-up's functions included) goes into the cache, written off the request path.
  const saveCache = () => {
    if (cacheUsed || cacheFile === undefined || !writable(dirname(bundle))) return;
    const data = script.createCachedData();
    setTimeout(() => writeCache(bundle, cacheFile, data), 500).unref();
  };
  return { main: module.exports.main, saveCache, cacheUsed };
}
