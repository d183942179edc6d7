// What recording deployed contracts (src/engine/execution/deployments.ts) adds to a transaction
// that runs in the EVM: the recorder's listeners attached and detached around it, and one call
// frame's beforeMessage/afterMessage through the EVM's own event emitter. Compared with the same
// frame's events without the recorder. Plain transfers do not run in the EVM: nothing is added.
//
//   node dist/bench/deploymentRecorder.js [--n 200000] [--rounds 5]
import { parseArgs } from 'node:util';
import type { EVM, EVMResult, Message } from '@ethereumjs/evm';
import { createAddressFromString } from '@ethereumjs/util';
import { createVM } from '@ethereumjs/vm';
import { DeploymentRecorder } from '../src/engine/execution/deployments.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { n: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '5' } } });
  const n = Number(values.n);
  const evm = (await createVM()).evm as EVM;
  const emit = (evm as unknown as { _emit(topic: string, data: unknown): Promise<void> })._emit;
  const message = { caller: createAddressFromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'), depth: 0 } as unknown as Message;
  const result = { execResult: { exceptionError: undefined } } as unknown as EVMResult;
  const frame = async () => {
    await emit('beforeMessage', message);
    await emit('afterMessage', result);
  };
  const without = async () => {
    for (let i = 0; i < n; i++) await frame();
  };
  const recorded = async () => {
    const recorder = new DeploymentRecorder();
    for (let i = 0; i < n; i++) await recorder.during(evm, i, frame);
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    const line: string[] = [];
    for (const [name, run] of [
      ['without', without],
      ['with the recorder', recorded],
    ] as const) {
      const cpu = process.cpuUsage();
      await run();
      const used = process.cpuUsage(cpu);
      line.push(`${name} ${((used.user + used.system) / n).toFixed(3)} µs/tx`);
    }
    console.log(line.join(' | '));
  }
}

await main();
