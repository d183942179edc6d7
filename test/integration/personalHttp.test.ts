/**
 * Ganache's account methods over HTTP on a plain chain-sim server (not only through
 * chain-sim/ganache): the methods are served under every entry point.
 */
import { expect } from 'chai';
import { createServer } from '../../src/index.js';
import type { ChainSimServer } from '../../src/server/index.js';
import { FIRST_ACCOUNT, postJson } from '../helpers/rpc.js';

describe('personal_, evm_ and miner_ account methods over HTTP', function () {
  this.timeout(30_000);
  let server: ChainSimServer;
  let url: string;
  let id = 0;
  const call = async (method: string, params: unknown[] = []) => {
    const response = await postJson(url, { jsonrpc: '2.0', id: ++id, method, params });
    return JSON.parse(response.body) as { result?: unknown; error?: { code: number; message: string } };
  };
  before(async () => {
    server = await createServer({ quiet: true });
    ({ url } = await server.listen(0, '127.0.0.1'));
  });
  after(() => server.close());

  it('a new account is locked until unlocked, sends with its passphrase, and can be removed', async () => {
    const first = FIRST_ACCOUNT.toLowerCase();
    const created = (await call('personal_newAccount', ['secret'])).result as string;
    expect(created).to.match(/^0x[0-9a-f]{40}$/);
    expect((await call('eth_accounts')).result).to.include(created);
    expect((await call('personal_listAccounts')).result).to.deep.equal((await call('eth_accounts')).result);
    await call('eth_sendTransaction', [{ from: first, to: created, value: '0xde0b6b3a7640000' }]);
    expect((await call('eth_sendTransaction', [{ from: created, to: first }])).error).to.deep.equal({
      code: -32000,
      message: 'authentication needed: passphrase or unlock',
    });
    expect((await call('eth_sign', [created, '0x1234'])).error?.message).to.equal('authentication needed: passphrase or unlock');
    expect((await call('personal_sendTransaction', [{ from: created, to: first }, 'wrong'])).error?.message).to.equal(
      'could not decrypt key with given passphrase',
    );
    const hash = (await call('personal_sendTransaction', [{ from: created, to: first }, 'secret'])).result as string;
    expect(((await call('eth_getTransactionByHash', [hash])).result as { from: string }).from).to.equal(created);
    expect((await call('personal_unlockAccount', [created, 'secret', 0])).result).to.equal(true);
    expect((await call('eth_sign', [created, '0x1234'])).result).to.match(/^0x[0-9a-f]{130}$/);
    expect((await call('personal_importRawKey', ['0x12', 'p'])).error).to.deep.include({ code: -32602 });
    expect((await call('personal_newAccount', [])).error).to.deep.include({ code: -32602 });
    expect((await call('evm_removeAccount', [created, 'secret'])).result).to.equal(true);
    expect((await call('eth_accounts')).result).to.not.include(created);
    expect((await call('rpc_modules')).result).to.include({ personal: '1.0', miner: '1.0', evm: '1.0', eth: '1.0' });
    expect((await call('miner_setGasPrice', ['0x7'])).result).to.equal(true);
    expect((await call('eth_gasPrice')).result).to.equal('0x7');
  });
});
