// Compiles fixtures/contracts/*.sol with solc-js into fixtures/artifacts/<Name>.json
// (abi + bytecode). Run `npm run compile-fixtures` after changing a contract; the
// tests check that the committed artifacts match their sources.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';

const root = new URL('..', import.meta.url).pathname;
const contractsDir = join(root, 'fixtures', 'contracts');
const artifactsDir = join(root, 'fixtures', 'artifacts');

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
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const artifacts = {};
  for (const [file, contracts] of Object.entries(output.contracts)) {
    for (const [name, contract] of Object.entries(contracts)) {
      artifacts[name] = { contractName: name, sourceName: file, compiler: solc.version(), abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
    }
  }
  return artifacts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, artifact] of Object.entries(compileAll())) {
    writeFileSync(join(artifactsDir, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    console.log(`wrote fixtures/artifacts/${name}.json`);
  }
}
