// Test vectors (data only) for the Ethash module. Sources: ethereum/tests
// (PoWTests), go-ethereum's former ethash tests, and Ethereum mainnet headers
// (each pinned to its block hash, which the tests recompute).

/** A header hex string whose 256-byte logsBloom is all zeros. */
const withZeroBloom = (before: string, after: string): string => before + 'b90100' + '00'.repeat(256) + after;

/** ethereum/tests PoWTests/ethash_tests.json: epoch-0 headers sealed with real Ethash. */
export const powTests = [
  {
    name: 'first',
    header: withZeroBloom(
      'f901f3a00000000000000000000000000000000000000000000000000000000000000000a01dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347940000000000000000000000000000000000000000a09178d0f23c965d81f0834a4c72c6253ce6830f4022b1359aaebfc1ecba442d4ea056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      '8302000080830f4240808080a058f759ede17a706c93f13030328bcea40c1d1341fb26f2facd21ceb0dae57017884242424242424242',
    ),
    nonce: '4242424242424242',
    mixHash: '58f759ede17a706c93f13030328bcea40c1d1341fb26f2facd21ceb0dae57017',
    seed: '0000000000000000000000000000000000000000000000000000000000000000',
    result: 'dd47fd2d98db51078356852d7c4014e6a5d6c387c35f40e2875b74a256ed7906',
    headerHash: '2a8de2adf89af77358250bf908bf04ba94a6e8c3ba87775564a41d269a05e4ce',
    cacheHash: '35ded12eecf2ce2e8da2e15c06d463aae9b84cb2530a00b932e4bbc484cde353',
    cacheSize: 16776896,
    fullSize: 1073739904,
  },
  {
    name: 'second',
    header: withZeroBloom(
      'f901f7a01bef91439a3e070a6586851c11e6fd79bbbea074b2b836727b8e75c7d4a6b698a01dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d4934794ea3cb5f94fa2ddd52ec6dd6eb75cf824f4058ca1a00c6e51346be0670ce63ac5f05324e27d20b180146269c5aab844d09a2b108c64a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      '8302004002832fefd880845511ed2a80a0e55d02c555a7969361cf74a9ec6211d8c14e4517930a00442f171bdb1698d17588307692cf71b12f6d',
    ),
    nonce: '307692cf71b12f6d',
    mixHash: 'e55d02c555a7969361cf74a9ec6211d8c14e4517930a00442f171bdb1698d175',
    seed: '0000000000000000000000000000000000000000000000000000000000000000',
    result: 'ab9b13423cface72cbec8424221651bc2e384ef0f7a560e038fc68c8d8684829',
    headerHash: '100cbec5e5ef82991290d0d93d758f19082e71f234cf479192a8b94df6da6bfe',
    cacheHash: '35ded12eecf2ce2e8da2e15c06d463aae9b84cb2530a00b932e4bbc484cde353',
    cacheSize: 16776896,
    fullSize: 1073739904,
  },
];

/** Ethereum mainnet block 1 (epoch 0, Frontier): header RLP and its block hash. */
export const mainnetBlock1 = {
  header: withZeroBloom(
    'f90211a0d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3a01dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d493479405a56e2d52c817161883f50c441c3228cfe54d9fa0d67e4d450343046425ae4271474353857ab860dbc0a1dde64b41b5cd3a532bf3a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    '8503ff80000001821388808455ba422499476574682f76312e302e302f6c696e75782f676f312e342e32a0969b900de27b6ac6a67742365dd65f55a0526c41fd18e1b16f1a1215c2e66f5988539bd4979fef1ec4',
  ),
  hash: '88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6',
  nonce: '539bd4979fef1ec4',
  mixHash: '969b900de27b6ac6a67742365dd65f55a0526c41fd18e1b16f1a1215c2e66f59',
  difficulty: 17171480576n,
};

/** Ethereum mainnet block 12,965,000, the London fork block (epoch 432): 16 header fields, baseFee last. */
export const mainnetLondonBlock = {
  header:
    'f9021fa03de6bb3849a138e6ab0b83a3a00dc7433f1e83f7fd488e4bba78f2fe2631a633a01dcc4de8dec75d7aab85b5' +
    '67b6ccd41ad312451b948a7413f0a142fd40d49347947777788200b672a42421017f65ede4fc759564c8a041cf6e8e60' +
    'fd087d2b00360dc29e5bfb21959bce1f4c242fd1ad7c4da968eb87a0dfcb68d3a3c41096f4a77569db7956e0a0e750fa' +
    'd185948e54789ea0e51779cba08a8865cd785e2e9dfce7da83aca010b10b9af2abbd367114b236f149534c821db90100' +
    '24e74ad77d9a2b27bdb8f6d6f7f1cffdd8cfb47fdebd433f011f7dfcfbb7db638fadd5ff66ed134ede2879ce61149797' +
    'fbcdf7b74f6b7de153ec61bdaffeeb7b59c3ed771a2fe9eaed8ac70e335e63ff2bfe239eaff8f94ca642fdf7ee553796' +
    '5be99a440f53d2ce057dbf9932be9a7b9a82ffdffe4eeee1a66c4cfb99fe4540fbff936f97dde9f6bfd9f8cefda2fc17' +
    '4d23dfdb7d6f7dfef5f754fe6a7eec92efdbff779b5feff3beafebd7fd6e973afebe4f5d86f3aafb1f73bf1e1d0cdd79' +
    '6d89827edeffe8fb6ae6d7bf639ec5f5ff4c32f31f6b525b676c7cdf5e5c75bfd5b7bd1928b6f43aac7fa0f6336576e5' +
    'f7b7dfb9e8ebbe6f6efe2f9dfe8b3f56871b81c1fe05b21883c5d4888401ca35428401ca262984610bdaa69768747470' +
    '733a2f2f7777772e6b7279707465782e6f7267a09620b46a81a4795cf4449d48e3270419f58b09293a5421205f88179b' +
    '563f815a88b223da049adf2216843b9aca00',
  hash: '9b83c12c69edb74f6c8dd5d052765c1adf940e320bd1291696e6fa07829eee71',
  nonce: 'b223da049adf2216',
  mixHash: '9620b46a81a4795cf4449d48e3270419f58b09293a5421205f88179b563f815a',
  difficulty: 7742494561645080n,
};

/**
 * go-ethereum consensus/ethash/algorithm_test.go (before its removal in #27178):
 * 1 KiB caches, the 32 KiB dataset of the epoch-0 one, and a hashimoto vector.
 * Full contents are pinned by SHA-256; a few items are spelled out for readable failures.
 */
export const gethSmall = {
  cacheBytes: 1024,
  datasetBytes: 32 * 1024,
  /** Seeds: epoch 0 → seedHash(0); epoch 1 → seedHash(1). */
  caches: [
    {
      epoch: 0,
      sha256: 'ec9d098491f09dffd2f1451ba330ab6b581fdb3abbd12fdd2255f33957c07938',
      firstItem: '7ce2991c951f7bf4c4c1bb119887ee07871eb5339d7b97b8588e85c742de90e5bafd5bbe6ce93a134fb6be9ad3e30db99d9528a2ea7846833f52e9ca119b6b54',
      lastItem: '845f64fd8324bb85312979dead74f764c9677aab89801ad4f927f1c00f12e28f22422bb44200d1969d9ab377dd6b099dc6dbc3222e9321b2c1e84f8e2f07731c',
    },
    {
      epoch: 1,
      sha256: '3f0fddca200222c84b547c428080aae9be352ef44f81d3d3910ffa9d7fd94c06',
      firstItem: '1f56855d59cc5a085720899b4377a0198f1abe948d85fe5820dc0e346b7c0931b9cde8e541d751de3b2b3275d0aabfae316209d5879297d8bd99f8a033c9d4df',
      lastItem: '5f470eb0165c6375eb8f245d50a25d521d1e569e3b2dccce626752bb26eae624a24511e831a81fab6898a791579f462574ca4851e6588116493dbccc3072e0c5',
    },
  ],
  /** Dataset of the epoch-0 1 KiB cache. */
  dataset: {
    sha256: '6396072b1ae9738e5d51b7c807bf3777a520fa5b6594970c5845681e6e4ffc0c',
    items: new Map([
      [0, '4bc09fbd530a041dd2ec296110a29e8f130f179c59d223f51ecce3126e8b0c74326abc2f32ccd9d7f976bd0944e3ccf8479db39343cbbffa467046ca97e2da63'],
      [1, 'da5f9d9688c7c33ab7b8aace570e422fa48b24659b72fc534669209d66389ca15b099c5604601e7581488e3bd6925cec0f12d465f8004d4fa84793f8e1e46a1b'],
      [511, '55876f4d31330caa02aedd0b0c121c3c41e736853a08071f0dd4ddc7412db0bbe274a9ac2932552bb37c40e72c2ef1d7cca8236942e480d709d3ea9d5ae0a1b7'],
    ]),
  },
  /** hashimotoLight(32 KiB, epoch-0 1 KiB cache, sealHash, nonce 0). */
  hashimoto: {
    sealHash: 'c9149cc0386e689d789a1c2f3d5d169a61a6218ed30e74414dc736e442ef3d1f',
    nonce: '0000000000000000',
    mixDigest: 'e4073cffaef931d37117cefd9afd27ea0f1cad6a981dd2605c4a1ac97c519800',
    result: 'd3539235ee2e6f8db665c0a72169f55b7f6c605712330b778ec3944f0eb5a557',
  },
};

/** go-ethereum's precomputed size tables for epochs 0..2047, pinned by SHA-256 of the comma-joined decimal values. */
export const gethSizeTables = {
  epochs: 2048,
  cacheSizesSha256: '35cd4482b2a12ef943f9a191dc8d1f8dbecdc718f116f010383593937a6ba355',
  datasetSizesSha256: '1b0ed907919a42079a1bf7425f7f2ba074f854073b5f9e70ae2969ba8ba6b094',
  samples: [
    { epoch: 0, cacheSize: 16776896, datasetSize: 1073739904 },
    { epoch: 1, cacheSize: 16907456, datasetSize: 1082130304 },
    { epoch: 2, cacheSize: 17039296, datasetSize: 1090514816 },
    { epoch: 110, cacheSize: 31195072, datasetSize: 1996487552 },
    { epoch: 432, cacheSize: 73400128, datasetSize: 4697620352 },
    { epoch: 1000, cacheSize: 147848768, datasetSize: 9462346624 },
    { epoch: 2047, cacheSize: 285081536, datasetSize: 18245220736 },
  ],
};
