/**
 * eth_estimateGas is never too low: a transaction sent with the estimate succeeds, and (where
 * success only grows with the gas limit) one gas less fails, so the estimate is the exact
 * boundary. Estimates are asked as ethers and viem ask them (no block named) and checked by
 * real sends, which pay fees and run through the block builder (the estimate's runs do not).
 */
import { expect } from 'chai';
import { BrowserProvider, Contract, Interface } from 'ethers';
import fc from 'fast-check';
import { ADDRESSES, type Rpc, artifact, newNode } from '../helpers/chain.js';
import { type GasProgram, bubblesOnly, calldataOf, deployProgram, gasProgram, hex, sendForReceipt } from '../helpers/gasPrograms.js';
import { ONE_RUN_ESTIMATES } from '../../src/engine/execution/gasEstimate.js';

const FROM = ADDRESSES[0]!;

/** What one transaction of a program showed. */
interface Checked {
  readonly estimate: bigint;
  /** Gas the successful send was charged. */
  readonly gasUsed: bigint;
  /** Status of the send with one gas less. */
  readonly lessStatus: string;
}

/** A send's receipt status; `refused` when the limit is below the intrinsic cost or the EIP-7623 floor (no limit lower works either). */
async function statusWith(rpc: Rpc, tx: Record<string, string>): Promise<string> {
  try {
    return (await sendForReceipt(rpc, tx)).status;
  } catch (error) {
    if (/intrinsic gas too low|floor data gas/.test(String((error as Error).message))) return 'refused';
    throw error;
  }
}

/**
 * Sends each of the program's transactions twice from a snapshot: with the estimate less one
 * (then reverted) and with the estimate (kept, so the next transaction sees its writes).
 */
async function checkProgram(rpc: Rpc, program: GasProgram): Promise<Checked[]> {
  const to = await deployProgram(rpc, program, FROM);
  const checked: Checked[] = [];
  for (const words of program.calls) {
    const data = calldataOf(words);
    const estimate = BigInt(await rpc<string>('eth_estimateGas', [{ from: FROM, to, data }]));
    const snapshot = await rpc<string>('evm_snapshot');
    const lessStatus = await statusWith(rpc, { from: FROM, to, data, gas: hex(estimate - 1n) });
    await rpc('evm_revert', [snapshot]);
    const sent = await sendForReceipt(rpc, { from: FROM, to, data, gas: hex(estimate) });
    expect(sent.status, `sent with the estimate ${estimate}: ${fc.stringify(program)}`).to.equal('0x1');
    checked.push({ estimate, gasUsed: BigInt(sent.gasUsed), lessStatus });
  }
  return checked;
}

describe('eth_estimateGas is never too low', function () {
  this.timeout(300_000);

  it('generated call trees whose failures bubble up: the estimate succeeds, one gas less fails', async () => {
    const { rpc, provider } = newNode();
    // Over all runs: how often the estimate had to exceed the gas charged (a refund, a call's
    // 1/64, a gasleft() check, a warm SSTORE's 2300 sentry); a generator that never gets
    // there would prove nothing.
    let aboveCharged = 0;
    let transactions = 0;
    try {
      await fc.assert(
        fc.asyncProperty(gasProgram(fc.constant(true)), async (program) => {
          for (const { estimate, gasUsed, lessStatus } of await checkProgram(rpc, program)) {
            transactions++;
            if (estimate > gasUsed) aboveCharged++;
            expect(lessStatus, `sent with ${estimate - 1n}, one less than the estimate: ${fc.stringify(program)}`).to.be.oneOf(['0x0', 'refused']);
          }
        }),
        { numRuns: 60 },
      );
    } finally {
      await provider.disconnect();
    }
    expect(transactions).to.be.greaterThan(60);
    expect(aboveCharged, `${aboveCharged} of ${transactions} estimates above the gas charged`).to.be.greaterThan(transactions / 5);
  });

  it("generated call trees that ignore a child's failure: the estimate succeeds", async () => {
    const { rpc, provider } = newNode();
    try {
      await fc.assert(
        fc.asyncProperty(
          gasProgram().filter((program) => !bubblesOnly(program)),
          async (program) => {
            await checkProgram(rpc, program);
          },
        ),
        { numRuns: 30 },
      );
    } finally {
      await provider.disconnect();
    }
  });

  it('the one-run answer (no gas-dependent step, no refund) is what the second run would have found', async () => {
    const { rpc, provider } = newNode();
    const takenBefore = ONE_RUN_ESTIMATES.taken;
    let estimates = 0;
    try {
      await fc.assert(
        fc.asyncProperty(gasProgram(), async (program) => {
          const to = await deployProgram(rpc, program, FROM);
          for (const words of program.calls) {
            const request = { from: FROM, to, data: calldataOf(words) };
            const once = await rpc<string>('eth_estimateGas', [request]);
            ONE_RUN_ESTIMATES.enabled = false;
            let searched: string;
            try {
              searched = await rpc<string>('eth_estimateGas', [request]);
            } finally {
              ONE_RUN_ESTIMATES.enabled = true;
            }
            expect(once, `estimate with and without the one-run answer: ${fc.stringify(program)}`).to.equal(searched);
            estimates++;
            await sendForReceipt(rpc, { ...request, gas: once });
          }
        }),
        { numRuns: 60 },
      );
      // Plain code with no refund, as a token transfer's, is answered after one run.
      const { abi, bytecode } = artifact('Token');
      const iface = new Interface(abi);
      const deployData = bytecode + iface.encodeDeploy(['Token', 'TKN', 10n ** 24n]).slice(2);
      const token = await sendForReceipt(rpc, { from: FROM, data: deployData, gas: hex(3_000_000n) });
      const data = iface.encodeFunctionData('transfer', [ADDRESSES[1]!, 1n]);
      const taken = ONE_RUN_ESTIMATES.taken;
      await rpc('eth_estimateGas', [{ from: FROM, to: token.contractAddress!, data }]);
      expect(ONE_RUN_ESTIMATES.taken, 'a token transfer answered after one run').to.equal(taken + 1);
    } finally {
      ONE_RUN_ESTIMATES.enabled = true;
      await provider.disconnect();
    }
    expect(ONE_RUN_ESTIMATES.taken - takenBefore, `one-run answers among ${estimates} estimates`).to.be.greaterThan(estimates / 10);
  });

  it('an ERC20Votes-like transfer (vote checkpoints keyed by block, cold writes, refunds) sent by ethers with its own estimate', async () => {
    const { rpc, provider } = newNode();
    try {
      const signers = await Promise.all([0, 1, 2].map((i) => new BrowserProvider(provider).getSigner(i)));
      const [a, b, c] = signers as [(typeof signers)[0], (typeof signers)[0], (typeof signers)[0]];
      const { abi, bytecode } = artifact('VotesToken');
      const deployed = await sendForReceipt(rpc, { from: FROM, data: bytecode, gas: hex(3_000_000n) });
      const token = (signer: typeof a) => new Contract(deployed.contractAddress!, abi, signer);
      // Set up as a governance test does: tokens minted, each holder its own delegate.
      for (const holder of [a, b]) await (await token(a).getFunction('mint')(holder.address, 1000n)).wait();
      for (const holder of [a, b]) await (await token(holder).getFunction('delegate')(holder.address)).wait();
      // ethers estimates each send (eth_estimateGas without a block) and sends with that limit:
      // each transfer moves votes, pushing a checkpoint for the block it runs in; the last one
      // empties b's balance (a refund).
      const iface = new Interface(abi);
      for (const [from, to, amount] of [
        [a, b, 10n],
        [a, c, 10n],
        [b, a, 1010n],
      ] as const) {
        const request = { from: from.address, to: deployed.contractAddress!, data: iface.encodeFunctionData('transfer', [to.address, amount]) };
        const estimate = BigInt(await rpc<string>('eth_estimateGas', [request]));
        const snapshot = await rpc<string>('evm_snapshot');
        expect(await statusWith(rpc, { ...request, gas: hex(estimate - 1n) }), 'one gas less').to.equal('0x0');
        await rpc('evm_revert', [snapshot]);
        const receipt = await (await token(from).getFunction('transfer')(to.address, amount)).wait();
        expect(receipt?.status).to.equal(1);
        // ethers sent with the estimate it asked for (the chain has not changed since).
        const sent = await rpc<{ gas: string }>('eth_getTransactionByHash', [receipt!.hash]);
        expect(BigInt(sent.gas)).to.equal(estimate);
      }
      expect(await token(a).getFunction('getVotes')(a.address)).to.equal(1000n - 20n + 1010n);
    } finally {
      await provider.disconnect();
    }
  });
});
