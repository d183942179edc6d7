import { expect } from 'chai';
import { provider } from 'chain-sim/mocha';

const target = '0x000000000000000000000000000000000000beef';

describe('per-test isolation', () => {
  it('changes state in one test', async () => {
    await provider.request({ method: 'hardhat_setBalance', params: [target, '0x64'] });
    await provider.request({ method: 'evm_mine' });
    expect(await provider.request({ method: 'eth_getBalance', params: [target, 'latest'] })).to.equal('0x64');
  });

  it('does not see it in the next', async () => {
    expect(await provider.request({ method: 'eth_getBalance', params: [target, 'latest'] })).to.equal('0x0');
    expect(await provider.request({ method: 'eth_blockNumber' })).to.equal('0x0');
  });
});
