// eth_getProof (EIP-1186) checked with an independent proof walker on ethers' RLP and
// keccak, and eth_createAccessList checked against a real transaction sent with its list.
import { expect } from 'chai';
import { Interface, decodeRlp, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, send, signed } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const TO = '0x000000000000000000000000000000000000beef';
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

type RlpItem = string | RlpItem[];

interface ProofAnswer {
  address: string;
  balance: string;
  nonce: string;
  codeHash: string;
  storageHash: string;
  accountProof: string[];
  storageProof: Array<{ key: string; value: string; proof: string[] }>;
}

function nibbles(hex: string): number[] {
  return [...hex.slice(2)].map((digit) => parseInt(digit, 16));
}

/**
 * Walks a Merkle-Patricia proof from `root` along keccak256(key): the value at that key,
 * or null for a proof of absence. Throws when a node does not hash to its reference.
 */
function walkProof(root: string, key: string, proof: readonly string[]): string | null {
  const path = nibbles(keccak256(key));
  let expected: string = root;
  let at = 0;
  for (const encoded of proof) {
    expect(keccak256(encoded), 'proof node hash').to.equal(expected);
    let node = decodeRlp(encoded) as RlpItem[];
    for (;;) {
      let child: RlpItem;
      if (node.length === 17) {
        if (at === path.length) return node[16] as string;
        child = node[path[at++]!]!;
        if (child === '0x') return null;
      } else {
        const encodedPath = nibbles(node[0] as string);
        const isLeaf = encodedPath[0]! >= 2;
        const rest = encodedPath.slice(encodedPath[0]! % 2 === 1 ? 1 : 2);
        if (rest.some((nibble, i) => path[at + i] !== nibble)) return null;
        at += rest.length;
        if (isLeaf) return node[1] as string;
        child = node[1]!;
      }
      if (Array.isArray(child)) {
        node = child; // a node under 32 bytes is inlined in its parent
        continue;
      }
      expected = child;
      break;
    }
  }
  throw new Error('proof ended before reaching a value or an absence');
}

describe('eth_getProof and eth_createAccessList', () => {
  it("proves an account and its storage against the block's state root", async () => {
    const { rpc } = newNode();
    const tokenAddress = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const { storageKeys } = (
      await rpc<{ accessList: Array<{ storageKeys: string[] }> }>('eth_createAccessList', [
        { from: ADDRESSES[0], to: tokenAddress, data: token.encodeFunctionData('balanceOf', [ADDRESSES[0]]) },
      ])
    ).accessList[0]!;
    const slot = storageKeys[0]!;
    const head = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);
    const proof = await rpc<ProofAnswer>('eth_getProof', [tokenAddress, [slot, '0x099'], 'latest']);

    const account = decodeRlp(walkProof(head.stateRoot, tokenAddress, proof.accountProof)!) as string[];
    expect(account.map((field) => (field === '0x' ? '0x0' : field))).to.deep.equal([
      '0x01', // a contract's nonce starts at 1
      '0x0',
      proof.storageHash,
      proof.codeHash,
    ]);
    expect(proof.codeHash).to.equal(keccak256(await rpc<string>('eth_getCode', [tokenAddress, 'latest'])));
    expect(proof.nonce).to.equal('0x1');

    const [balanceSlot, zeroSlot] = proof.storageProof;
    expect(balanceSlot!.key).to.equal(slot); // 32-byte keys come back as given
    expect(BigInt(balanceSlot!.value)).to.equal(1000n);
    expect(BigInt(decodeRlp(walkProof(proof.storageHash, slot, balanceSlot!.proof)!) as string)).to.equal(BigInt(balanceSlot!.value));
    expect(zeroSlot).to.include({ key: '0x99', value: '0x0' }); // shorter keys as QUANTITY (an unused slot)
    expect(walkProof(proof.storageHash, zeroPadValue('0x99', 32), zeroSlot!.proof)).to.equal(null);
  });

  it('proves a balance at an older block, and the absence of an account that does not exist', async () => {
    const { rpc } = newNode();
    const genesis = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['0x0', false]);
    const before = await rpc<string>('eth_getBalance', [ADDRESSES[0], '0x0']);
    await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000, value: 5n });

    const old = await rpc<ProofAnswer>('eth_getProof', [ADDRESSES[0], [], '0x0']);
    expect(old.balance).to.equal(before);
    const account = decodeRlp(walkProof(genesis.stateRoot, ADDRESSES[0]!, old.accountProof)!) as string[];
    expect(BigInt(account[1]!)).to.equal(BigInt(before));

    const head = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);
    const nobody = '0x00000000000000000000000000000000000000ab';
    const absent = await rpc<ProofAnswer>('eth_getProof', [nobody, ['0x01'], 'latest']);
    expect(walkProof(head.stateRoot, nobody, absent.accountProof)).to.equal(null);
    expect(absent).to.deep.include({ balance: '0x0', nonce: '0x0', storageHash: EMPTY_TRIE_ROOT, codeHash: keccak256('0x') });
    expect(absent.storageProof).to.deep.equal([{ key: '0x1', value: '0x0', proof: [] }]);
    await expectRpcError(rpc('eth_getProof', [nobody, ['0x' + '00'.repeat(33)], 'latest']), -32602, /argument 1 \(storageKeys\)\[0\].*too long/);
  });

  it('lists what a call touches; a transaction sent with that list uses exactly the gas it reported', async () => {
    const { rpc } = newNode();
    const tokenAddress = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const data = token.encodeFunctionData('transfer', [TO, 7n]);
    const result = await rpc<{ accessList: Array<{ address: string; storageKeys: string[] }>; gasUsed: string; error?: string }>('eth_createAccessList', [
      { from: ADDRESSES[0], to: tokenAddress, data },
      'latest',
    ]);
    expect(result.error).to.equal(undefined);
    expect(result.accessList.map((item) => item.address.toLowerCase())).to.deep.equal([tokenAddress.toLowerCase()]);
    const slots = result.accessList[0]!.storageKeys;
    expect(slots).to.have.length(2); // the sender's and the recipient's balances
    const stored = await Promise.all(slots.map((key) => rpc<string>('eth_getStorageAt', [tokenAddress, key, 'latest'])));
    expect(stored.map((value) => BigInt(value)).sort()).to.deep.equal([0n, 1000n]);

    const receipt = await send(rpc, 0, { to: tokenAddress, nonce: 1, data, accessList: result.accessList });
    expect(receipt.status).to.equal('0x1');
    expect(receipt.gasUsed).to.equal(result.gasUsed);
  });

  it("reports a reverting call's list with go-ethereum's error field, and takes legacy gas prices", async () => {
    const { rpc } = newNode();
    const tokenAddress = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const overdraft = token.encodeFunctionData('transfer', [TO, 10n ** 30n]);
    const reverted = await rpc<{ accessList: unknown[]; error?: string }>('eth_createAccessList', [{ from: ADDRESSES[0], to: tokenAddress, data: overdraft }]);
    expect(reverted.error).to.equal('execution reverted: Token: insufficient balance');
    expect(reverted.accessList).to.have.length(1);

    // With a gas price the call runs as a type-1 transaction, access list included.
    const transfer = token.encodeFunctionData('transfer', [TO, 7n]);
    const gasPrice = 2n * 10n ** 9n;
    const legacy = await rpc<{ accessList: Array<{ address: string; storageKeys: string[] }>; gasUsed: string }>('eth_createAccessList', [
      { from: ADDRESSES[0], to: tokenAddress, data: transfer, gasPrice: toBeHex(gasPrice) },
    ]);
    const raw = await signed(0, {
      type: 1,
      to: tokenAddress,
      nonce: 1,
      gasPrice,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      data: transfer,
      accessList: legacy.accessList,
    });
    const hash = await rpc<string>('eth_sendRawTransaction', [raw]);
    expect((await rpc<{ gasUsed: string }>('eth_getTransactionReceipt', [hash])).gasUsed).to.equal(legacy.gasUsed);
  });

  it('is refused before Berlin, where transactions carry no access list', async () => {
    const { rpc } = newNode({ hardfork: 'istanbul' });
    await expectRpcError(rpc('eth_createAccessList', [{ from: ADDRESSES[0], to: TO }]), -32000, /not supported before the berlin hardfork/);
  });
});
