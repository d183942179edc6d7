// Bundles the CLI into dist/bundle/ (run by `npm run build`, hence by `npm ci` and `npm test`).
// Loading ~470 small ES modules one by one was most of `npx chain-sim`'s start-up; one file
// loads in a fraction of that. The proof-of-work worker threads are started by URL relative to
// the module that starts them, so they are entry points of their own next to cli.js.
// tiny-secp256k1 reads its WebAssembly file and secp256k1 its prebuilt binary next to their own
// modules, and viem is loaded lazily (EIP-712 signing only): all three stay in node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: {
    cli: 'dist/src/cli.js',
    cpuMinerWorker: 'dist/src/engine/pow/cpuMinerWorker.js',
    cacheWorker: 'dist/src/engine/pow/cacheWorker.js',
  },
  outdir: 'dist/bundle',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['tiny-secp256k1', 'secp256k1', 'viem'],
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
