import { expect } from 'chai';
import { loadFixture, provider } from 'chain-sim/mocha';
import { deployToken, deployments, token } from './fixture.mjs';

describe('Token (with loadFixture)', () => {
  it('starts with the whole supply at the owner', async () => {
    const { address, owner } = await loadFixture(deployToken);
    expect(await (await token(provider, address)).balanceOf(owner)).to.equal(1000n);
  });

  it('transfers, and the next test does not see it', async () => {
    const { address, alice } = await loadFixture(deployToken);
    await (await (await token(provider, address)).transfer(alice, 10n)).wait();
    expect(await (await token(provider, address)).balanceOf(alice)).to.equal(10n);
  });

  it('sees a fresh fixture again, deployed only once', async () => {
    const { address, alice } = await loadFixture(deployToken);
    expect(await (await token(provider, address)).balanceOf(alice)).to.equal(0n);
    expect(deployments).to.equal(1);
  });
});
