// Compiles fixtures/contracts/*.sol with solc-js into fixtures/artifacts/<Name>.json
// (abi + bytecode; interfaces, which have no bytecode, are skipped). Run `npm run compile-fixtures`
// after changing a contract; `--check` writes nothing and exits 1 if a committed artifact differs
// from what its source compiles to (the tests run it).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';

const root = new URL('..', import.meta.url).pathname;
const contractsDir = join(root, 'fixtures', 'contracts');
const artifactsDir = join(root, 'fixtures', 'artifacts');

/** Imports of packages (`hardhat/console.sol`) come from node_modules. */
function findImport(path) {
  const file = join(root, 'node_modules', path);
  return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${path}` };
}

export function compileAll() {
  const sources = {};
  for (const file of readdirSync(contractsDir).filter((f) => f.endsWith('.sol'))) {
    sources[file] = { content: readFileSync(join(contractsDir, file), 'utf8') };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const artifacts = {};
  for (const [file, contracts] of Object.entries(output.contracts)) {
    if (!(file in sources)) continue; // imported from a package
    for (const [name, contract] of Object.entries(contracts)) {
      if (contract.evm.bytecode.object === '') continue;
      artifacts[name] = { contractName: name, sourceName: file, compiler: solc.version(), abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
    }
  }
  return artifacts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [name, artifact] of Object.entries(compileAll())) {
    const path = join(artifactsDir, `${name}.json`);
    const text = `${JSON.stringify(artifact, null, 2)}\n`;
    if (!check) {
      writeFileSync(path, text);
      console.log(`wrote fixtures/artifacts/${name}.json`);
    } else if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
      stale.push(`fixtures/artifacts/${name}.json`);
    }
  }
  if (stale.length > 0) {
    console.error(`compile-fixtures: out of date (run npm run compile-fixtures): ${stale.join(', ')}`);
    process.exit(1);
  }
}
