/** eth_getAccountInfo (Anvil's and Nethermind's; not in go-ethereum): balance, nonce and code in one answer. */
import { expect } from 'chai';
import { ADDRESSES, type Rpc, newNode, send } from '../helpers/chain.js';
import { postJson, rpcError, httpServerPerSuite } from '../helpers/rpc.js';

describe('eth_getAccountInfo', function () {
  this.timeout(30_000);
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode());
  });

  it('answers the same values as eth_getBalance, eth_getTransactionCount and eth_getCode', async () => {
    // A contract whose runtime code is 0x60ff (PUSH1 0xff): init code returning two bytes.
    const receipt = await send(rpc, 0, { data: '0x6160ff6000526002601ef3', gasLimit: 100_000 });
    const contract = receipt.contractAddress as string;
    for (const who of [ADDRESSES[0]!, contract, '0x00000000000000000000000000000000000000ee']) {
      const info = await rpc<Record<string, string>>('eth_getAccountInfo', [who, 'latest']);
      expect(info).to.deep.equal({
        balance: await rpc('eth_getBalance', [who, 'latest']),
        nonce: await rpc('eth_getTransactionCount', [who, 'latest']),
        code: await rpc('eth_getCode', [who, 'latest']),
      });
    }
    expect((await rpc<Record<string, string>>('eth_getAccountInfo', [contract])).code).to.equal('0x60ff');
  });

  it('reads an earlier block', async () => {
    await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
    const before = await rpc<Record<string, string>>('eth_getAccountInfo', [ADDRESSES[0], '0x0']);
    expect(before.nonce).to.equal('0x0');
    expect((await rpc<Record<string, string>>('eth_getAccountInfo', [ADDRESSES[0]])).nonce).to.equal('0x1');
  });

  it('names a bad address', async () => {
    const error = await rpcError(() => rpc('eth_getAccountInfo', ['0x1234']));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.match(/address/);
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('answers the object', async () => {
      const answer = await postJson(url(), { jsonrpc: '2.0', id: 1, method: 'eth_getAccountInfo', params: [ADDRESSES[0], 'latest'] });
      const info = JSON.parse(answer.body).result as Record<string, string>;
      expect(Object.keys(info)).to.deep.equal(['balance', 'nonce', 'code']);
      expect(BigInt(info.balance!) > 0n).to.equal(true);
      expect(info.code).to.equal('0x');
    });
  });
});
