import { expect } from 'chai';
import { MAX_EXPORT_BYTES, exportBlocks } from '../../src/engine/blocks/chainExport.js';
import { newNode, send } from '../helpers/chain.js';
import { TO } from './chain.js';

describe('chain_exportChain size limit', () => {
  it('refuses a range whose RLP exceeds the limit, naming the blocks, before building it', async () => {
    const { provider, rpc } = newNode({ quiet: true });
    for (let nonce = 0; nonce < 3; nonce++) await send(rpc, 0, { to: TO, value: 1n, nonce, gasLimit: 21000 });
    const { chain } = await provider.ready();
    const sizes = [1n, 2n, 3n].map((n) => chain.blocks.byNumber(n)!.block.serialize().length);
    expect(exportBlocks(chain.blocks, 1n, 3n, sizes[0]! + sizes[1]! + sizes[2]!)).to.have.length(sizes[0]! + sizes[1]! + sizes[2]!);
    expect(() => exportBlocks(chain.blocks, 1n, 3n, sizes[0]! + sizes[1]!)).to.throw(
      `export too large: blocks 1..3 exceed ${sizes[0]! + sizes[1]!} bytes of RLP; ask for a smaller range`,
    );
    expect(MAX_EXPORT_BYTES).to.equal(32 * 1024 * 1024);
  });
});
