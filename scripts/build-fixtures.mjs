// Builds the ready fixtures (fixtures/README.md says what each holds) in one run on one chain,
// every transaction sent by the first default account (the deployer):
//   erc20.json:  Token (fixtures/contracts/Token.sol) at the deployer's nonce-0 address, 1,000,000
//                TKN minted to it, then 1,000 TKN sent to each of accounts 1 and 2;
//   erc721.json: Collectible (fixtures/contracts/Collectible.sol) at its nonce-3 address, tokens
//                1 and 2 minted to account 0, 3 and 4 to account 1, 5 to account 2.
// Each file keeps its contract's account and the deployer's. The deployer's entry is the same in
// both (nonce and balance as the whole run left them), so either file alone, both, or both in
// either order give it the same nonce, above both contracts': its next deployment never lands on
// an address that already holds one of them.
// Run `npm run build-fixtures` after `npm run build` when a contract changes; `--check` writes
// nothing and exits 1 if a committed fixture differs from what this run builds (the tests run it).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Interface, parseEther } from 'ethers';
import { createProvider } from '../dist/src/index.js';

const root = new URL('..', import.meta.url);
const provider = createProvider({ quiet: true });
const rpc = (method, params = []) => provider.request({ method, params });
const [deployer, alice, bob] = await rpc('eth_accounts');

/** Send one transaction from the deployer and insist that it succeeded. */
async function send(tx, what) {
  const hash = await rpc('eth_sendTransaction', [{ from: deployer, ...tx }]);
  const receipt = await rpc('eth_getTransactionReceipt', [hash]);
  if (receipt?.status !== '0x1') throw new Error(`build-fixtures: ${what} failed (transaction ${hash})`);
  return receipt;
}

/** Deploy fixtures/artifacts/<name>.json; returns a handle whose call() sends a transaction to it. */
async function deploy(name, args) {
  const artifact = JSON.parse(readFileSync(new URL(`fixtures/artifacts/${name}.json`, root), 'utf8'));
  const abi = new Interface(artifact.abi);
  const { contractAddress: address } = await send({ data: artifact.bytecode + abi.encodeDeploy(args).slice(2) }, `deploying ${name}`);
  const call = (fn, fnArgs) => send({ to: address, data: abi.encodeFunctionData(fn, fnArgs) }, `${name}.${fn}(${fnArgs.join(', ')})`);
  return { name, address, call };
}

const token = await deploy('Token', ['Token', 'TKN', parseEther('1000000')]);
for (const holder of [alice, bob]) await token.call('transfer', [holder, parseEther('1000')]);

const collectible = await deploy('Collectible', ['Collectible', 'CLT', 'https://chain-sim.invalid/collectible/']);
const mints = [
  [deployer, 1],
  [deployer, 2],
  [alice, 3],
  [alice, 4],
  [bob, 5],
];
for (const [holder, id] of mints) await collectible.call('mint', [holder, id]);

// Dumped once, after everything: the deployer's entry is then identical in every file.
const { alloc } = await rpc('chain_dumpState');
// Slots in order, whatever order the node wrote them in (a dump lists them as they were first written).
const sorted = (account) =>
  account.storage ? { ...account, storage: Object.fromEntries(Object.entries(account.storage).sort(([a], [b]) => (a < b ? -1 : 1))) } : account;
const files = { 'fixtures/erc20.json': token, 'fixtures/erc721.json': collectible };
const check = process.argv.includes('--check');
const stale = [];
for (const [path, contract] of Object.entries(files)) {
  const text = `${JSON.stringify({ alloc: { [deployer]: sorted(alloc[deployer]), [contract.address]: sorted(alloc[contract.address]) } }, null, 2)}\n`;
  const url = new URL(path, root);
  if (!check) {
    writeFileSync(url, text);
    console.log(`wrote ${path}: ${contract.name} at ${contract.address}`);
  } else if (!existsSync(url) || readFileSync(url, 'utf8') !== text) {
    stale.push(path);
  }
}
await provider.disconnect();
if (stale.length > 0) {
  console.error(`build-fixtures: out of date (run npm run build && npm run build-fixtures): ${stale.join(', ')}`);
  process.exit(1);
}
