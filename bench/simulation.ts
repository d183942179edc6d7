/**
 * Simulation rows (opt-in): eth_call with a state override, and eth_simulateV1 of 3 blocks with
 * 10 calls in all, sequential. The same requests go to every target (Anvil serves both).
 */
import { RpcError, asData } from './rpc.js';
import type { Measurement, Workload } from './workloads.js';

const RECIPIENT = '0x000000000000000000000000000000000000bEEF';
const BALANCE_OF = '0x70a08231';

async function timed(ops: number, body: () => Promise<void>): Promise<Measurement> {
  const start = performance.now();
  await body();
  return { ops, ms: performance.now() - start };
}

export const SIMULATION_WORKLOADS: readonly Workload[] = [
  {
    name: 'callOverride',
    label: () => 'eth_call balanceOf with a state override (caller balance), sequential',
    unit: 'calls/s',
    optIn: true,
    usesToken: true,
    async run(session, n) {
      const owner = session.accounts[0]!.address;
      const call = { from: owner, to: await session.token(), data: `${BALANCE_OF}${owner.slice(2).toLowerCase().padStart(64, '0')}` };
      const overrides = { [owner]: { balance: '0x56bc75e2d63100000' } };
      return timed(n, async () => {
        for (let i = 0; i < n; i++) {
          const result = asData('eth_call', await session.client.request('eth_call', [call, 'latest', overrides]));
          if (result.length !== 66) throw new RpcError('eth_call', undefined, `balanceOf returned ${result}`);
        }
      });
    },
  },
  {
    name: 'simulate',
    label: () => 'eth_simulateV1, 3 blocks with 10 calls (transfers and balanceOf), sequential',
    unit: 'calls/s',
    optIn: true,
    usesToken: true,
    async run(session, n) {
      const owner = session.accounts[0]!.address;
      const token = await session.token();
      const transfer = { from: owner, to: RECIPIENT, value: '0x1' };
      const read = { from: owner, to: token, data: `${BALANCE_OF}${owner.slice(2).toLowerCase().padStart(64, '0')}` };
      const options = {
        blockStateCalls: [
          { stateOverrides: { [owner]: { balance: '0x56bc75e2d63100000' } }, calls: [transfer, read, transfer] },
          { calls: [transfer, read, transfer] },
          { calls: [transfer, read, transfer, read] },
        ],
      };
      return timed(n, async () => {
        for (let i = 0; i < n; i++) {
          const blocks = (await session.client.request('eth_simulateV1', [options, 'latest'])) as Array<{ calls: Array<{ status: string }> }>;
          const statuses = blocks.flatMap((block) => block.calls.map((call) => call.status));
          if (blocks.length !== 3 || statuses.length !== 10 || statuses.some((s) => s !== '0x1')) {
            throw new RpcError('eth_simulateV1', undefined, `unexpected answer: ${JSON.stringify(statuses)}`);
          }
        }
      });
    },
  },
];
