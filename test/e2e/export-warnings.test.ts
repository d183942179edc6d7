import { join } from 'node:path';
import { expect } from 'chai';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { callRpc } from '../../src/cli/rpcClient.js';
import { ADDRESSES } from '../helpers/chain.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../import/chain.js';

/** A chain file holds blocks only: what test controls did outside them is said at export, and explained at import. */
describe('chain-sim export after test controls', function () {
  this.timeout(60_000);
  let server: ChainSimServer;
  let url: string;
  const rpc = (method: string, params: unknown[] = []) => callRpc(url, method, params);
  before(async () => {
    server = await createServer({ quiet: true });
    url = (await server.listen(0, '127.0.0.1')).url;
  });
  after(async () => {
    await server.close();
  });

  it('warns about setter changes before a block, impersonated sends and changes after the head; --import explains its mismatch', async () => {
    const whale = `0x${'bb'.repeat(20)}`;
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    expect(await rpc('chain_exportCheck')).to.deep.equal({ blocks: [], impersonatedTransactions: [], changedAfterHead: false });
    await rpc('hardhat_setBalance', [whale, '0xde0b6b3a7640000']);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    await rpc('hardhat_impersonateAccount', [whale]);
    const impersonated = await rpc('eth_sendTransaction', [{ from: whale, to: ADDRESSES[1], value: '0x1' }]);
    await rpc('hardhat_setCode', [`0x${'cc'.repeat(20)}`, '0x00']);
    expect(await rpc('chain_exportCheck')).to.deep.equal({ blocks: ['0x2'], impersonatedTransactions: [impersonated], changedAfterHead: true });
    expect(await rpc('chain_exportCheck', ['0x1', '0x1'])).to.deep.equal({ blocks: [], impersonatedTransactions: [], changedAfterHead: false });

    const file = join(tempDir(), 'chain.rlp');
    const exported = await runCli(['export', file, '--rpc-url', url]);
    expect(exported.code, exported.stderr).to.equal(0);
    const warnings = exported.stderr.trim().split('\n');
    expect(warnings).to.have.length(3);
    expect(warnings[0]).to.match(
      /^chain-sim: export: warning: the chain holds state changes no block explains \(.* before block 2\): --import of this file will fail there with "state root mismatch"$/,
    );
    expect(warnings[1]).to.equal(
      `chain-sim: export: warning: transactions sent by impersonated accounts carry no real signature and cannot be imported: ${String(impersonated)}`,
    );
    expect(warnings[2]).to.match(/after the last block/);

    const imported = await runCli(['--genesis', `${file}.genesis.json`, '--import', file, '--port', '0']);
    expect(imported.code).to.equal(1);
    expect(imported.stderr).to.match(
      /block 2: state root mismatch: have 0x[0-9a-f]{64}, want 0x[0-9a-f]{64} \(running the block on its parent's state gave another state than the block records: .*test controls/,
    );
  });
});
