// Hardhat downloads native solc builds, which these machines cannot: compile with the solc npm package instead.
const path = require('node:path');
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  const solc = require('solc');
  const installed = require('solc/package.json').version;
  if (installed !== solcVersion) throw new Error(`solc ${solcVersion} wanted, the solc package is ${installed}`);
  return {
    compilerPath: path.join(path.dirname(require.resolve('solc/package.json')), 'soljson.js'),
    isSolcJs: true,
    version: solcVersion,
    longVersion: solc.version(),
  };
});
