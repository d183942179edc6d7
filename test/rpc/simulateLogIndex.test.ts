/**
 * eth_simulateV1 log indexes as go-ethereum numbers them (internal/ethapi/logtracer.go): one count
 * per simulated block, across its calls, advanced by every log emitted, also by logs that a
 * reverted frame or a reverted call then drops. With and without traceTransfers.
 */
import { expect } from 'chai';
import { ADDRESSES, type Rpc, newNode } from '../helpers/chain.js';
import { postJson, httpServerPerSuite } from '../helpers/rpc.js';

const X = '0x00000000000000000000000000000000000000c1';
const Y = '0x00000000000000000000000000000000000000c2';
const Z = '0x00000000000000000000000000000000000000c3';
/** LOG0, then REVERT. */
const LOG_THEN_REVERT = '0x60006000a060006000fd';
/** CALL X (which logs and reverts), POP, then LOG0 and STOP. */
const CALL_X_THEN_LOG = `0x600060006000600060007300000000000000000000000000000000000000c15af15060006000a000`;
/** LOG0, STOP. */
const LOG_ONLY = '0x60006000a000';
const CODE = { [X]: { code: LOG_THEN_REVERT }, [Y]: { code: CALL_X_THEN_LOG }, [Z]: { code: LOG_ONLY } };

type Call = { status: string; logs: Array<{ logIndex: string; address: string }> };
type Block = { calls: Call[] };

describe('eth_simulateV1 log indexes', function () {
  this.timeout(30_000);
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode());
  });
  const simulate = (calls: unknown[], traceTransfers = false) =>
    rpc<Block[]>('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: CODE, calls }], traceTransfers }, 'latest']);
  const indexes = (block: Block) => block.calls.map((c) => c.logs.map((l) => l.logIndex));

  for (const traceTransfers of [false, true]) {
    describe(traceTransfers ? 'with traceTransfers' : 'without traceTransfers', () => {
      it("a reverted inner call's log still takes its number", async () => {
        const [block] = await simulate(
          [
            { from: ADDRESSES[0], to: Y },
            { from: ADDRESSES[0], to: Z },
          ],
          traceTransfers,
        );
        expect(indexes(block!)).to.deep.equal([['0x1'], ['0x2']]);
      });

      it("a reverted call's log takes its number too; the count runs on across the block's calls", async () => {
        const [block] = await simulate(
          [
            { from: ADDRESSES[0], to: X },
            { from: ADDRESSES[0], to: Z },
            { from: ADDRESSES[0], to: Z },
          ],
          traceTransfers,
        );
        expect(block!.calls.map((c) => c.status)).to.deep.equal(['0x0', '0x1', '0x1']);
        expect(indexes(block!)).to.deep.equal([[], ['0x1'], ['0x2']]);
      });
    });
  }

  it('each simulated block counts from 0', async () => {
    const blocks = await rpc<Block[]>('eth_simulateV1', [
      { blockStateCalls: [{ stateOverrides: CODE, calls: [{ from: ADDRESSES[0], to: Z }] }, { calls: [{ from: ADDRESSES[0], to: Z }] }] },
      'latest',
    ]);
    expect(blocks.map(indexes)).to.deep.equal([[['0x0']], [['0x0']]]);
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('numbers as go-ethereum does', async () => {
      const params = [{ blockStateCalls: [{ stateOverrides: CODE, calls: [{ from: ADDRESSES[0], to: Y }] }] }, 'latest'];
      const answer = JSON.parse((await postJson(url(), { jsonrpc: '2.0', id: 1, method: 'eth_simulateV1', params })).body) as { result: Block[] };
      expect(indexes(answer.result[0]!)).to.deep.equal([['0x1']]);
    });
  });
});
