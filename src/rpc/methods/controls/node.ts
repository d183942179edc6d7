/**
 * The node itself: chain_metadata (hardhat_metadata: tools call it to recognise a development
 * node), Anvil's anvil_nodeInfo and anvil_setChainId, and request logging.
 */
import { clientVersionOf } from '../../clientRules.js';
import { boolean, count, fail } from '../../codec.js';
import { encodeData } from '../../encode.js';
import { defineMethod, param } from '../../method.js';

export const nodeControlMethods = [
  defineMethod(
    { name: 'chain_setLoggingEnabled', aliases: ['hardhat_setLoggingEnabled', 'anvil_setLoggingEnabled'] },
    [param('enabled', boolean)],
    ({ requestLog }, enabled) => {
      requestLog.enabled = enabled;
      return true;
    },
  ),

  // What hardhat_metadata answers: tools look for this method to recognise a development node.
  defineMethod({ name: 'chain_metadata', aliases: ['hardhat_metadata', 'anvil_metadata'] }, [], ({ chain, rules, version, fork }) => ({
    clientVersion: clientVersionOf(rules, version),
    chainId: Number(chain.chainId),
    instanceId: encodeData(chain.instanceId),
    latestBlockNumber: Number(chain.head.number),
    latestBlockHash: chain.head.hashHex,
    // Hardhat's field for a forked chain (docs/forking.md).
    ...(fork?.session
      ? { forkedNetwork: { chainId: Number(fork.session.chainId), forkBlockNumber: Number(fork.session.number), forkBlockHash: fork.session.hashHex } }
      : {}),
  })),
  defineMethod('anvil_nodeInfo', [], ({ chain }) => {
    const head = chain.head;
    return {
      currentBlockNumber: Number(head.number),
      currentBlockTimestamp: Number(head.block.header.timestamp),
      currentBlockHash: head.hashHex,
      hardFork: chain.nextBlockCommon().hardfork(),
      transactionOrder: chain.poolOrder,
      environment: {
        baseFee: Number(chain.nextBaseFee() ?? 0n),
        chainId: Number(chain.chainId),
        gasLimit: Number(chain.blockGasLimit),
        gasPrice: Number((chain.nextBaseFee() ?? 0n) + 1_000_000_000n),
      },
      forkConfig: {},
    };
  }),
  defineMethod('anvil_setChainId', [param('chainId', count)], async ({ chain }, chainId) => {
    if (chainId === 0n) fail('0 (chainId)', 'a chain id must be positive');
    await chain.setChainId(chainId);
    return null;
  }),
];
