/**
 * eth_call's path without runTx (directCall.ts) against runTx itself, on the same calls in
 * the same state: return data, halt, gas used, refunds and gas charged (what estimates
 * search on), logs. The calls read and write
 * storage, revert, branch on gasleft(), nest under the 63/64 rule, create contracts, come
 * send value, come from funded, empty and contract accounts, carry access lists, and measure which
 * addresses and slots are warm.
 */
import { expect } from 'chai';
import { Interface } from 'ethers';
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { type Execution, callsDirectly } from '../../src/engine/execution/directCall.js';
import { type CallRequest, type ExecutionContext, executeCall, executeCallDirectly, transactionGasCap } from '../../src/engine/execution/execution.js';
import { ADDRESSES, artifact, deploy, newNode, send } from '../helpers/chain.js';

const OP = {
  ORIGIN: '32',
  EXTCODEHASH: '3f',
  MSTORE: '52',
  GAS: '5a',
  COINBASE: '41',
  BALANCE: '31',
  POP: '50',
  SWAP1: '90',
  SUB: '03',
  GASPRICE: '3a',
  BASEFEE: '48',
  SLOAD: '54',
  RETURN: 'f3',
  TLOAD: '5c',
  TSTORE: '5d',
};
const push1 = (n: number): string => `60${n.toString(16).padStart(2, '0')}`;
const push2 = (n: number): string => `61${n.toString(16).padStart(4, '0')}`;
/** Gas an access costs: GAS <access> POP GAS SWAP1 SUB, stored at word `word`. */
const costOf = (access: string, word: number): string => `${OP.GAS}${access}${OP.POP}${OP.GAS}${OP.SWAP1}${OP.SUB}${push1(word * 32)}${OP.MSTORE}`;

/**
 * Returns 9 words: the origin's code hash (empty account or not: the nonce raised before
 * the message), what reading the coinbase, a precompile, 0xbeef and its own slot 7 cost
 * (warm or cold), the gas price, the base fee, the gas at the start, and a transient slot
 * written and read back.
 */
const WARM_PROBE = [
  `${OP.GAS}${push2(0x100)}${OP.MSTORE}`,
  `${OP.ORIGIN}${OP.EXTCODEHASH}${push1(0)}${OP.MSTORE}`,
  costOf(`${OP.COINBASE}${OP.BALANCE}`, 1),
  costOf(`${push1(1)}${OP.BALANCE}`, 2),
  costOf(`${push2(0xbeef)}${OP.BALANCE}`, 3),
  costOf(`${push1(7)}${OP.SLOAD}`, 4),
  `${OP.GASPRICE}${push1(5 * 32)}${OP.MSTORE}`,
  `${OP.BASEFEE}${push1(6 * 32)}${OP.MSTORE}`,
  `${push1(42)}${push1(3)}${OP.TSTORE}${push1(3)}${OP.TLOAD}${push1(7 * 32)}${OP.MSTORE}`,
  `${push2(0x120)}${push1(0)}${OP.RETURN}`,
].join('');

interface Comparable {
  readonly totalGasSpent: string;
  readonly gasRefund: string;
  readonly error: string | undefined;
  readonly returnValue: string;
  readonly gasUsed: string;
  readonly refund: string;
  readonly logs: string;
}

function comparable({ execResult: result, totalGasSpent, gasRefund }: Execution): Comparable {
  return {
    totalGasSpent: totalGasSpent.toString(),
    gasRefund: gasRefund.toString(),
    error: result.exceptionError?.error,
    returnValue: bytesToHex(result.returnValue),
    gasUsed: result.executionGasUsed.toString(),
    refund: String(result.gasRefund ?? 0n),
    logs: JSON.stringify((result.logs ?? []).map(([address, topics, data]) => [bytesToHex(address), topics.map(bytesToHex), bytesToHex(data)])),
  };
}

for (const hardfork of ['prague', 'osaka']) {
  describe(`integration: eth_call without runTx, against runTx (${hardfork})`, () => {
    it('answers every call as runTx does, and leaves the state as it was', async () => {
      const { provider, rpc } = newNode({ hardfork });
      try {
        const token = await deploy(rpc, 'Token', ['T', 'T', 10n ** 24n], 0);
        const probe = await deploy(rpc, 'GasProbe', [], 1);
        const tree = await deploy(rpc, 'CallTree', [], 2);
        await send(rpc, 0, { to: probe, nonce: 3, data: new Interface(artifact('GasProbe').abi).encodeFunctionData('fill', [5]), gasLimit: 1_000_000 });
        const warm = '0x000000000000000000000000000000000000a11c';
        await rpc('hardhat_setCode', [warm, `0x${WARM_PROBE}`]);
        await rpc('hardhat_setStorageAt', [warm, '0x07', `0x${'00'.repeat(31)}09`]);

        const erc20 = new Interface(artifact('Token').abi);
        const gasProbe = new Interface(artifact('GasProbe').abi);
        const callTree = new Interface(artifact('CallTree').abi);
        const stranger = createAddressFromString('0x00000000000000000000000000000000000057a4');
        const at = (address: string) => createAddressFromString(address);
        const data = (hex: string) => hexToBytes(hex as `0x${string}`);
        const from = at(ADDRESSES[0]!);
        const requests: CallRequest[] = [
          { from, to: at(token), data: data(erc20.encodeFunctionData('balanceOf', [ADDRESSES[0]])) },
          { to: at(token), data: data(erc20.encodeFunctionData('name')) },
          { from, to: at(token), data: data(erc20.encodeFunctionData('transfer', [ADDRESSES[1], 5n])) },
          { from: stranger, to: at(token), data: data(erc20.encodeFunctionData('transfer', [ADDRESSES[1], 5n])) },
          { from: at(ADDRESSES[1]!), to: at(token), data: data(erc20.encodeFunctionData('transferFrom', [ADDRESSES[0], ADDRESSES[1], 5n])) },
          { from: at(probe), to: at(token), data: data(erc20.encodeFunctionData('transfer', [ADDRESSES[1], 0n])) },
          { from, to: at(probe), data: data(gasProbe.encodeFunctionData('nest', [6])) },
          { from, to: at(probe), data: data(gasProbe.encodeFunctionData('burnThenCall', [30])) },
          { from, to: at(probe), data: data(gasProbe.encodeFunctionData('clear')) },
          { from, to: at(probe), data: data(gasProbe.encodeFunctionData('divide', [1, 0])) },
          { from, to: at(probe), data: data(gasProbe.encodeFunctionData('failAssert')) },
          { from, to: at(tree), data: data(callTree.encodeFunctionData('run')) },
          { from, to: at(warm) },
          { from: stranger, to: at(warm) },
          {
            to: at(warm),
            accessList: [
              { address: '0x000000000000000000000000000000000000beef', storageKeys: [] },
              { address: warm, storageKeys: [`0x${'00'.repeat(31)}07`] },
            ],
          },
          { from, to: at(ADDRESSES[1]!) },
          { from, to: at(ADDRESSES[1]!), value: 10n ** 18n },
          { from, to: at(token), value: 1n, data: data(erc20.encodeFunctionData('name')) },
          { from, to: at(warm), value: 5n },
          // much calldata, little execution: the EIP-7623 floor is what it is charged (Prague on)
          { from, to: at(warm), data: new Uint8Array(2_000).fill(0xff) },
          // gasleft() on either side of its threshold, and limits near the intrinsic cost
          ...[60_000n, 70_000n, 80_000n, 90_000n, 100_000n].map((gas) => ({
            from,
            to: at(probe),
            gas,
            data: data(gasProbe.encodeFunctionData('needsGasLeft', [60_000])),
          })),
          ...[21_000n, 21_100n, 21_500n, 23_000n].map((gas) => ({ from, to: at(warm), gas })),
        ];

        const node = await provider.ready();
        const chain = node.chain;
        // Run where a call runs: inside a task of the chain's queue, on the live VM.
        await chain.inspect(async (core) => {
          const ctx: ExecutionContext = { vm: core.vm, block: chain.head.block };
          const cap = transactionGasCap(core.vm.common, chain.head.block.header.gasLimit);
          const rootBefore = bytesToHex(await core.vm.stateManager.getStateRoot());
          for (const [i, request] of requests.entries()) {
            expect(callsDirectly(core.vm.common, request), `request ${i} takes the direct path`).to.equal(true);
            const direct = await executeCallDirectly(ctx, request, cap);
            const viaRunTx = await executeCall(ctx, request, cap);
            expect(direct, `request ${i}`).to.not.equal(undefined);
            expect(comparable(direct!), `request ${i}`).to.deep.equal(comparable(viaRunTx));
          }
          // Below the intrinsic cost or above the sender's balance runTx answers (with its error); calls paying fees go to it.
          expect(await executeCallDirectly(ctx, { from, to: at(warm), gas: 20_999n }, cap)).to.equal(undefined);
          expect(await executeCallDirectly(ctx, { from: stranger, to: at(warm), value: 1n }, cap)).to.equal(undefined);
          expect(callsDirectly(core.vm.common, { from, to: at(warm), maxFeePerGas: 1n })).to.equal(false);
          expect(callsDirectly(core.vm.common, { from, data: data('0x00') })).to.equal(false);
          expect(bytesToHex(await core.vm.stateManager.getStateRoot())).to.equal(rootBefore);
        });
        expect(await rpc('eth_getTransactionCount', [stranger.toString(), 'latest'])).to.equal('0x0');
      } finally {
        await provider.disconnect();
      }
    });
  });
}
