// Builds fixtures/erc20.json: the Token from fixtures/contracts/Token.sol deployed by the
// first default account (so at 0x5FbDB2315678afecb367f032d93F642f64180aa3), with 1,000,000
// TKN minted to it and 1,000 TKN sent to each of accounts 1 and 2. Kept: the token's account
// and the deployer's (its nonce, so that its next deployment does not land on the token's
// address; its balance as the three transactions left it).
// Run `npm run build-fixtures` after `npm run build` when Token.sol changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { Interface, parseEther } from 'ethers';
import { createProvider } from '../dist/src/index.js';

const root = new URL('..', import.meta.url);
const artifact = JSON.parse(readFileSync(new URL('fixtures/artifacts/Token.json', root), 'utf8'));
const token = new Interface(artifact.abi);
const provider = createProvider({ quiet: true });
const rpc = (method, params = []) => provider.request({ method, params });
const [owner, alice, bob] = await rpc('eth_accounts');

const deploy = await rpc('eth_sendTransaction', [{ from: owner, data: artifact.bytecode + token.encodeDeploy(['Token', 'TKN', parseEther('1000000')]).slice(2) }]);
const address = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress;
for (const holder of [alice, bob]) {
  await rpc('eth_sendTransaction', [{ from: owner, to: address, data: token.encodeFunctionData('transfer', [holder, parseEther('1000')]) }]);
}
const dump = await rpc('chain_dumpState');
const fixture = { alloc: { [owner]: dump.alloc[owner], [address]: dump.alloc[address] } };
writeFileSync(new URL('fixtures/erc20.json', root), `${JSON.stringify(fixture, null, 2)}\n`);
console.log(`wrote fixtures/erc20.json: Token at ${address}; holders ${owner}, ${alice}, ${bob}`);
await provider.disconnect();
