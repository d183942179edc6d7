/**
 * The reverse of `--genesis`: a go-ethereum genesis.json describing a running chain's
 * block 0 (config with the fork schedule, the genesis header fields, alloc = the state
 * at block 0), such that `--genesis` of it rebuilds a block 0 with the same hash.
 */
import { rejected, type Chain, type ForkActivation, toHex } from '../engine/index.js';
import { type Common, Hardfork } from '@ethereumjs/common';
import { encodeQuantity as quantity } from '../rpc/encode.js';
import type { JsonObject } from '../rpc/json.js';
import { encodeAlloc } from '../persistence/stateFile.js';
import { MAX_DUMP_BYTES, collectAccounts, withRestarts } from '../persistence/stateCapture.js';

/** The config field go-ethereum schedules each ethereumjs fork with (Spurious Dragon has two). */
const FIELDS_OF_FORK: Readonly<Record<string, readonly string[]>> = {
  homestead: ['homesteadBlock'],
  dao: ['daoForkBlock'],
  tangerineWhistle: ['eip150Block'],
  spuriousDragon: ['eip155Block', 'eip158Block'],
  byzantium: ['byzantiumBlock'],
  constantinople: ['constantinopleBlock'],
  petersburg: ['petersburgBlock'],
  istanbul: ['istanbulBlock'],
  muirGlacier: ['muirGlacierBlock'],
  berlin: ['berlinBlock'],
  london: ['londonBlock'],
  arrowGlacier: ['arrowGlacierBlock'],
  grayGlacier: ['grayGlacierBlock'],
  mergeNetsplitBlock: ['mergeNetsplitBlock'],
  shanghai: ['shanghaiTime'],
  cancun: ['cancunTime'],
  prague: ['pragueTime'],
  osaka: ['osakaTime'],
  bpo1: ['bpo1Time'],
  bpo2: ['bpo2Time'],
  bpo3: ['bpo3Time'],
  bpo4: ['bpo4Time'],
  bpo5: ['bpo5Time'],
};

const BLOB_FORKS = new Set(['cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5']);
const GAS_PER_BLOB = 131072n;

export async function exportGethGenesis(chain: Chain): Promise<JsonObject> {
  if (chain.fork) throw rejected("a forked chain has no genesis block of its own to export (its history is the upstream's)");
  const genesis = chain.blocks.byNumber(0n)!.block.header;
  // One answer: refused past the dump limit rather than built whole.
  const alloc = await withRestarts(async () => collectAccounts(await chain.genesisState(), MAX_DUMP_BYTES, "block 0's accounts (chain_exportGenesis)"));
  const forks = chain.schedule?.forks ?? singleForkSchedule(chain.common);
  const out: JsonObject = {
    config: configOf(chain.chainId, forks, chain.common, genesis.difficulty),
    nonce: toHex(genesis.nonce),
    timestamp: quantity(genesis.timestamp),
    extraData: toHex(genesis.extraData),
    gasLimit: quantity(genesis.gasLimit),
    difficulty: quantity(genesis.difficulty),
    mixHash: toHex(genesis.mixHash),
    coinbase: genesis.coinbase.toString(),
    alloc: encodeAlloc(alloc, { omitZeroNonce: true }),
    number: '0x0',
    gasUsed: quantity(genesis.gasUsed),
    parentHash: toHex(genesis.parentHash),
  };
  if (genesis.baseFeePerGas !== undefined) out.baseFeePerGas = quantity(genesis.baseFeePerGas);
  if (genesis.excessBlobGas !== undefined) out.excessBlobGas = quantity(genesis.excessBlobGas);
  if (genesis.blobGasUsed !== undefined) out.blobGasUsed = quantity(genesis.blobGasUsed);
  return out;
}

/** A chain fixed at one hardfork: every fork up to it active from genesis (block 0, time 0). */
function singleForkSchedule(common: Common): ForkActivation[] {
  const forks: ForkActivation[] = [];
  for (const { name } of common.hardforks()) {
    // The DAO fork's irregular state change is mainnet's, not a dev chain's.
    if (name === Hardfork.Dao || !common.gteHardfork(name)) continue;
    const timed = FIELDS_OF_FORK[name]?.[0]?.endsWith('Time') ?? false;
    forks.push(timed ? { name, timestamp: 0n } : { name, block: 0n });
  }
  return forks;
}

function configOf(chainId: bigint, forks: readonly ForkActivation[], common: Common, genesisDifficulty: bigint): JsonObject {
  const config: JsonObject = { chainId: number(chainId) };
  const blobSchedule: JsonObject = {};
  const rules = common.copy();
  for (const fork of forks) {
    if (fork.name === Hardfork.Paris) {
      // The first proof-of-stake block; chain-sim's pre-merge blocks have difficulty 1, so the TTD is reached one block earlier.
      const block = fork.block ?? 0n;
      config.terminalTotalDifficulty = block === 0n ? 0 : number(genesisDifficulty + block - 1n);
      config.mergeNetsplitBlock = number(block);
      continue;
    }
    for (const field of FIELDS_OF_FORK[fork.name] ?? []) {
      config[field] = number(fork.timestamp ?? fork.block ?? 0n);
    }
    if (BLOB_FORKS.has(fork.name)) {
      rules.setHardfork(fork.name);
      const { targetBlobGasPerBlock, maxBlobGasPerBlock, blobGasPriceUpdateFraction } = rules.getBlobGasSchedule();
      blobSchedule[fork.name] = {
        target: number(targetBlobGasPerBlock / GAS_PER_BLOB),
        max: number(maxBlobGasPerBlock / GAS_PER_BLOB),
        baseFeeUpdateFraction: number(blobGasPriceUpdateFraction),
      };
    }
  }
  if (Object.keys(blobSchedule).length > 0) config.blobSchedule = blobSchedule;
  return config;
}

/** A JSON number where exact, otherwise a decimal string (which --genesis also reads). */
function number(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}
