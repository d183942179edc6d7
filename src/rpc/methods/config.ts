/** eth_config (EIP-7910): the chain's current, next and last fork rules, as go-ethereum reports them. */
import { type Chain, type ForkRules, TIME_FORKS, forkConfig, type BlobParams } from '../../engine/index.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { serverError } from '../errors.js';
import type { Json } from '../json.js';
import { defineMethod } from '../method.js';

export const configMethods = [
  defineMethod('eth_config', [], ({ chain }) => {
    if (chain.fork) {
      // The fork id starts from the genesis hash of the upstream network, which a fork does not hold.
      throw serverError('eth_config is not served on a forked chain: the upstream genesis block is not known here');
    }
    const forks = chain.schedule?.forks.map((f) => f.name) ?? [chain.common.hardfork()];
    const unknown = forks.find((name) => name === 'amsterdam');
    if (unknown) throw serverError(`eth_config: the rules of ${unknown} (its system contracts and precompiles) are not described by chain-sim`);
    const genesis = chain.blocks.byNumber(chain.blocks.firstNumber)!;
    const answer = forkConfig({
      chainId: chain.chainId,
      schedule: chain.schedule,
      hardfork: chain.common.hardfork(),
      genesisHash: genesis.hash,
      genesisTimestamp: genesis.block.header.timestamp,
      headTimestamp: chain.head.block.header.timestamp,
      singleForkBlobs: chain.schedule ? undefined : singleForkBlobs(chain),
    });
    return { current: encodeRules(answer.current), next: encodeRules(answer.next), last: encodeRules(answer.last) };
  }),
];

/** The blob parameters of a chain on one hardfork, from its Common (blob counts from bpo1 on, gas amounts before). */
function singleForkBlobs(chain: Chain): BlobParams | undefined {
  const common = chain.common;
  if (!(TIME_FORKS as readonly string[]).includes(common.hardfork()) || !common.gteHardfork('cancun')) return undefined;
  const perBlob = common.param('blobGasPerBlob');
  const count = (name: string, gasName: string): number => {
    try {
      return Number(common.param(name));
    } catch {
      return Number(common.param(gasName) / perBlob);
    }
  };
  return {
    target: count('target', 'targetBlobGasPerBlock'),
    max: count('max', 'maxBlobGasPerBlock'),
    baseFeeUpdateFraction: Number(common.param('blobGasPriceUpdateFraction')),
  };
}

function encodeRules(rules: ForkRules | undefined): Json {
  if (!rules) return null;
  return {
    activationTime: Number(rules.activationTime),
    blobSchedule: rules.blobSchedule
      ? { target: rules.blobSchedule.target, max: rules.blobSchedule.max, baseFeeUpdateFraction: rules.blobSchedule.baseFeeUpdateFraction }
      : null,
    chainId: encodeQuantity(rules.chainId),
    forkId: encodeData(rules.forkId),
    precompiles: Object.fromEntries(rules.precompiles.map(([name, address]) => [name, encodeData(address)])),
    systemContracts: Object.fromEntries(rules.systemContracts.map(([name, address]) => [name, encodeData(address)])),
  };
}
