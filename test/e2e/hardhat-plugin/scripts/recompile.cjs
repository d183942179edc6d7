// Run by hardhat-plugin.test.ts (`hardhat run`): a failing send's message and first Solidity frame,
// before and after the contract is edited (its code moved down by five lines) and recompiled, in
// one process, so on one chain. Writes contracts/Edited.sol; the harness removes it.
const fs = require('node:fs');
const path = require('node:path');
const hre = require('hardhat');

const file = path.join(hre.config.paths.sources, 'Edited.sol');
const source = (padding) =>
  `// SPDX-License-Identifier: MIT\npragma solidity 0.8.30;\n${'\n'.repeat(padding)}\ncontract Edited {\n    error Nope(uint256 code);\n    uint256 public calls;\n\n    function fail() external {\n        calls += 1;\n        revert Nope(7);\n    }\n}\n`;

async function failure(padding) {
  fs.writeFileSync(file, source(padding));
  await hre.run('compile', { quiet: true });
  const edited = await hre.ethers.deployContract('Edited');
  const error = await edited.fail({ gasLimit: 100000 }).then(
    () => undefined,
    (e) => e,
  );
  return { message: error.message, frame: error.stack.split('\n')[1].trim() };
}

async function main() {
  const before = await failure(0);
  const after = await failure(5);
  console.log(JSON.stringify({ before, after }));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
