import { readFileSync } from 'node:fs';
import { BrowserProvider, Contract, ContractFactory } from 'ethers';

const artifact = JSON.parse(readFileSync(new URL('../../../fixtures/artifacts/Token.json', import.meta.url), 'utf8'));

export let deployments = 0;

/** Deploys a token: what loadFixture runs once per worker. */
export async function deployToken(provider) {
  deployments++;
  const ethers = new BrowserProvider(provider);
  const [owner, alice] = await Promise.all([ethers.getSigner(0), ethers.getSigner(1)]);
  const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, owner).deploy('Token', 'TKN', 1000n);
  await deployed.waitForDeployment();
  const address = await deployed.getAddress();
  return { address, owner: owner.address, alice: alice.address };
}

export async function token(provider, address, signerIndex = 0) {
  const signer = await new BrowserProvider(provider).getSigner(signerIndex);
  return new Contract(address, artifact.abi, signer);
}
