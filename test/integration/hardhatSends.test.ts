import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ADDRESSES, newNode, send } from '../helpers/chain.js';
import { requestError, revertingInitCode } from '../helpers/rpc.js';

interface RecordedCase {
  readonly name: string;
  readonly payload?: string;
  readonly initCode?: string;
  readonly data?: string;
  readonly code: number;
  readonly message: string;
}

/** Recorded from `hardhat node`: what a send of a failing transaction answers there. */
const RECORDED = JSON.parse(readFileSync(new URL('../../../test/fixtures/hardhat-node-errors.json', import.meta.url), 'utf8')) as { cases: RecordedCase[] };

describe("Failed sends under automine, as Hardhat's node answers them", () => {
  for (const recorded of RECORDED.cases) {
    it(`${recorded.name}: Hardhat's code, message and data; the transaction is mined`, async () => {
      const { provider, rpc } = newNode();
      const data = recorded.initCode ?? revertingInitCode(recorded.payload!);
      const before = await rpc<string>('eth_blockNumber');
      const error = await requestError(provider, 'eth_sendTransaction', [{ from: ADDRESSES[0], data, gas: '0x100000' }]);
      const txHash = (error.data as { txHash?: string } | undefined)?.txHash;
      expect(txHash).to.match(/^0x[0-9a-f]{64}$/);
      expect({ code: error.code, message: error.message, data: error.data }).to.deep.equal({
        code: recorded.code,
        message: recorded.message,
        data: { message: recorded.message, txHash, data: recorded.data ?? recorded.payload },
      });
      const receipt = await rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [txHash]);
      expect(receipt.status).to.equal('0x0');
      expect(BigInt(receipt.blockNumber)).to.equal(BigInt(before) + 1n);
    });
  }

  it('eth_sendRawTransaction answers the same; a successful send still answers its hash', async () => {
    const { rpc } = newNode();
    const receipt = await send(rpc, 1, { data: revertingInitCode('0x'), gasLimit: 100_000, nonce: 0 });
    expect(receipt.status).to.equal('0x0');
    const ok = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    expect(ok).to.match(/^0x[0-9a-f]{64}$/);
  });

  it('with automine off the send answers the hash, and the block mines it as failed', async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' }]);
    await rpc('evm_mine');
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x0');
  });

  it('hardhatNode: false answers the hash, as go-ethereum and Anvil, and names itself chain-sim', async () => {
    const { rpc } = newNode({ hardhatNode: false });
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' }]);
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x0');
    expect(await rpc<string>('web3_clientVersion')).to.match(/^chain-sim\/v/);
    expect(await newNode().rpc<string>('web3_clientVersion')).to.match(/^HardhatNetwork\/chain-sim\/v/);
  });
});
