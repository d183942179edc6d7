/**
 * A Prague block as a hand-written fork upstream answers `eth_getBlockByNumber`: every header
 * field a forking node reads, with distinct filler hashes. The fault-injection upstreams of the
 * fork tests and of the reliability bench (bench/reliabilityFork.ts) share it; each passes the
 * fields it cares about (number, hash, timestamp...).
 */
export function fakeUpstreamBlock(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    number: '0x64',
    hash: `0x${'ab'.repeat(32)}`,
    parentHash: `0x${'01'.repeat(32)}`,
    timestamp: '0x6553f100',
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
    baseFeePerGas: '0x3b9aca00',
    difficulty: '0x0',
    miner: `0x${'00'.repeat(20)}`,
    stateRoot: `0x${'02'.repeat(32)}`,
    transactionsRoot: `0x${'03'.repeat(32)}`,
    receiptsRoot: `0x${'04'.repeat(32)}`,
    logsBloom: `0x${'00'.repeat(256)}`,
    extraData: '0x',
    mixHash: `0x${'05'.repeat(32)}`,
    nonce: '0x0000000000000000',
    sha3Uncles: `0x${'06'.repeat(32)}`,
    withdrawalsRoot: `0x${'07'.repeat(32)}`,
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
    parentBeaconBlockRoot: `0x${'08'.repeat(32)}`,
    requestsHash: `0x${'09'.repeat(32)}`,
    transactions: [],
    ...fields,
  };
}
