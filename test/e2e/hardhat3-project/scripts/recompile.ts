// Run by test/e2e/hardhat3.test.ts (`hardhat run --config hardhat.chain-sim.config.ts`): a failing
// send's message and first Solidity frame, before and after the contract is edited (its code moved
// down by five lines) and rebuilt, on one connection. Writes contracts/Edited.sol; the harness removes it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import hre from 'hardhat';

const file = path.join(hre.config.paths.root, 'contracts', 'Edited.sol');
const source = (padding: number) =>
  `// SPDX-License-Identifier: MIT\npragma solidity 0.8.30;\n${'\n'.repeat(padding)}\ncontract Edited {\n    error Nope(uint256 code);\n    uint256 public calls;\n\n    function fail() external {\n        calls += 1;\n        revert Nope(7);\n    }\n}\n`;

const { ethers } = await hre.network.create();

async function failure(padding: number): Promise<{ message: string; frame: string }> {
  writeFileSync(file, source(padding));
  await hre.tasks.getTask('build').run({ quiet: true, noTests: true });
  const edited = await ethers.deployContract('Edited');
  const error = (await edited
    .getFunction('fail')({ gasLimit: 100_000 })
    .then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
  return { message: error.message, frame: (error.stack ?? '').split('\n')[1]!.trim() };
}

const before = await failure(0);
const after = await failure(5);
console.log(JSON.stringify({ before, after }));
