/** Proof-of-work exchange for external miners: getWork, submitWork, hashrates (go-ethereum's ethash API). */
import { bytesToBigInt } from '@ethereumjs/util';
import { type Decoder, fixedData, uint256 } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { serverError } from '../errors.js';
import { defineMethod, param } from '../method.js';

/** go-ethereum reads a QUANTITY; the original interface and ethminer send 32 zero-padded bytes. Both are taken. */
const hashrate: Decoder<bigint> = (value, path) =>
  typeof value === 'string' && value.length === 66 ? bytesToBigInt(fixedData(32)(value, path)) : uint256(value, path);

// Without --mining pow these answer as go-ethereum does after the merge: "not supported", false, 0.
export const powMethods = [
  defineMethod({ name: 'chain_getWork', aliases: ['eth_getWork'] }, [], async ({ pow }) => {
    if (!pow) throw serverError('not supported: start chain-sim with --mining pow to mine with getWork/submitWork');
    const work = await pow.getWork();
    return [encodeData(work.powHash), encodeData(work.seedHash), encodeData(work.boundary)];
  }),
  defineMethod(
    { name: 'chain_submitWork', aliases: ['eth_submitWork'] },
    [param('nonce', fixedData(8)), param('powHash', fixedData(32)), param('mixDigest', fixedData(32))],
    async ({ pow }, nonce, powHash, mixDigest) => (pow ? pow.submitWork(nonce, powHash, mixDigest) : false),
  ),
  defineMethod(
    { name: 'chain_submitHashrate', aliases: ['eth_submitHashrate'] },
    [param('hashrate', hashrate), param('id', fixedData(32))],
    ({ pow }, rate, id) => {
      if (!pow) return false;
      pow.submitHashrate(rate, id);
      return true;
    },
  ),
  defineMethod({ name: 'chain_hashrate', aliases: ['eth_hashrate'] }, [], ({ pow }) => encodeQuantity(pow?.hashrate.total() ?? 0n)),
];
