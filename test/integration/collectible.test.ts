/**
 * The ERC-721 of fixtures/erc721.json behaving as EIP-721 says, through the provider on the real
 * VM: transfers, approvals, the receiver check of safeTransferFrom, and the events.
 */
import { expect } from 'chai';
import { Interface, ZeroAddress, getAddress } from 'ethers';
import type { TransactionRequest } from 'ethers';
import { ADDRESSES, type Rpc, artifact, deploy, expectRpcError, newNode, nonceOf, send } from '../helpers/chain.js';

const COLLECTIBLE = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const nft = new Interface(artifact('Collectible').abi);
const receiverAbi = new Interface(artifact('CollectibleReceiver').abi);
const [A0, A1, A2] = ADDRESSES.map((a) => getAddress(a)) as [string, string, string];

describe('Collectible (ERC-721 fixture) through the provider', () => {
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode({ fixtures: ['fixtures/erc721.json'] }));
  });

  // The fixture's accounts have sent transactions already: sign with their current nonce.
  const sendFrom = async (keyIndex: number, tx: TransactionRequest) => send(rpc, keyIndex, { nonce: await nonceOf(rpc, ADDRESSES[keyIndex]!), ...tx });
  const read = async (fn: string, args: unknown[] = []) =>
    nft.decodeFunctionResult(fn, await rpc<string>('eth_call', [{ to: COLLECTIBLE, data: nft.encodeFunctionData(fn, args) }, 'latest']))[0];
  /** Send from a default key; returns the receipt's logs decoded by the collectible's ABI. */
  const act = async (keyIndex: number, fn: string, args: unknown[], to = COLLECTIBLE) => {
    const receipt = await sendFrom(keyIndex, { to, data: nft.encodeFunctionData(fn, args), gasLimit: 200_000 });
    expect(receipt.status, `${fn} status`).to.equal('0x1');
    const logs = receipt.logs as { address: string; topics: string[]; data: string }[];
    return logs.map((log) => ({ address: log.address, event: (log.address === COLLECTIBLE ? nft : receiverAbi).parseLog(log) }));
  };
  /** The custom error a call reverts with, decoded (the revert is checked through eth_call, code 3). */
  const customError = async (from: string, fn: string, args: unknown[]) => {
    const error = await expectRpcError(
      rpc('eth_call', [{ from, to: COLLECTIBLE, data: nft.encodeFunctionData(fn, args) }, 'latest']),
      3,
      /^execution reverted/,
    );
    return nft.parseError(error.data as string);
  };

  it('transfers by the holder: Transfer event, owner and balances follow', async () => {
    const events = await act(0, 'transferFrom', [A0, A1, 1]);
    expect(events).to.have.length(1);
    expect(events[0]!.event?.name).to.equal('Transfer');
    expect([...events[0]!.event!.args]).to.deep.equal([A0, A1, 1n]);
    expect(await read('ownerOf', [1])).to.equal(A1);
    expect(await read('balanceOf', [A0])).to.equal(1n);
    expect(await read('balanceOf', [A1])).to.equal(3n);
  });

  it('approve then transferFrom by the approved address, which clears the approval', async () => {
    const approval = await act(1, 'approve', [A2, 3]);
    expect(approval.map((e) => e.event?.name)).to.deep.equal(['Approval']);
    expect([...approval[0]!.event!.args]).to.deep.equal([A1, A2, 3n]);
    expect(await read('getApproved', [3])).to.equal(A2);

    const moved = await act(2, 'transferFrom', [A1, A2, 3]);
    expect([...moved[0]!.event!.args]).to.deep.equal([A1, A2, 3n]);
    expect(await read('ownerOf', [3])).to.equal(A2);
    expect(await read('getApproved', [3])).to.equal(ZeroAddress);
    // The approval was for that one transfer: moving token 4 is not allowed.
    const refused = await customError(A2, 'transferFrom', [A1, A2, 4]);
    expect(refused?.name).to.equal('ERC721InsufficientApproval');
    expect([...refused!.args]).to.deep.equal([A2, 4n]);
  });

  it('setApprovalForAll lets an operator move every token of the holder', async () => {
    const events = await act(0, 'setApprovalForAll', [A2, true]);
    expect(events[0]!.event?.name).to.equal('ApprovalForAll');
    expect([...events[0]!.event!.args]).to.deep.equal([A0, A2, true]);
    expect(await read('isApprovedForAll', [A0, A2])).to.equal(true);
    await act(2, 'transferFrom', [A0, A1, 1]);
    await act(2, 'transferFrom', [A0, A1, 2]);
    expect(await read('balanceOf', [A0])).to.equal(0n);
    expect(await read('balanceOf', [A1])).to.equal(4n);
  });

  it('refuses what EIP-721 says to refuse, with the error naming why', async () => {
    expect((await customError(A1, 'transferFrom', [A0, A1, 1]))?.name).to.equal('ERC721InsufficientApproval');
    expect((await customError(A0, 'transferFrom', [A1, A0, 1]))?.name).to.equal('ERC721IncorrectOwner');
    expect((await customError(A0, 'transferFrom', [A0, ZeroAddress, 1]))?.name).to.equal('ERC721InvalidReceiver');
    expect((await customError(A1, 'approve', [A1, 1]))?.name).to.equal('ERC721InvalidApprover');
    expect((await customError(A0, 'ownerOf', [99]))?.name).to.equal('ERC721NonexistentToken');
    expect((await customError(A0, 'tokenURI', [99]))?.name).to.equal('ERC721NonexistentToken');
    expect((await customError(A0, 'balanceOf', [ZeroAddress]))?.name).to.equal('ERC721InvalidOwner');
    // Minting is the deployer's alone, and an id is minted once.
    expect((await customError(A1, 'mint', [A1, 6]))?.name).to.equal('NotContractOwner');
    expect((await customError(A0, 'mint', [A1, 5]))?.name).to.equal('ERC721TokenExists');
    // A failed transaction changes nothing and leaves its Transfer out.
    const receipt = await sendFrom(1, { to: COLLECTIBLE, data: nft.encodeFunctionData('transferFrom', [A0, A1, 1]), gasLimit: 200_000 });
    expect(receipt.status).to.equal('0x0');
    expect(receipt.logs).to.deep.equal([]);
    expect(await read('ownerOf', [1])).to.equal(A0);
  });

  it('safeTransferFrom to a contract that is not a receiver reverts; to an account it transfers', async () => {
    const token = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const refused = await customError(A0, 'safeTransferFrom(address,address,uint256)', [A0, token, 1]);
    expect(refused?.name).to.equal('ERC721InvalidReceiver');
    expect(refused!.args[0]).to.equal(getAddress(token));
    const receipt = await sendFrom(0, {
      to: COLLECTIBLE,
      data: nft.encodeFunctionData('safeTransferFrom(address,address,uint256)', [A0, token, 1]),
      gasLimit: 200_000,
    });
    expect(receipt.status).to.equal('0x0');
    expect(await read('ownerOf', [1])).to.equal(A0);

    await act(0, 'safeTransferFrom(address,address,uint256)', [A0, A2, 1]);
    expect(await read('ownerOf', [1])).to.equal(A2);
  });

  it('safeTransferFrom to a receiver calls onERC721Received; a refusal passes its reason on', async () => {
    const receiver = await deploy(rpc, 'CollectibleReceiver');
    const events = await act(1, 'safeTransferFrom(address,address,uint256,bytes)', [A1, receiver, 3, '0xc0ffee']);
    expect(events.map((e) => e.event?.name)).to.deep.equal(['Transfer', 'Received']);
    expect([...events[1]!.event!.args]).to.deep.equal([A1, A1, 3n, '0xc0ffee']);
    expect(await read('ownerOf', [3])).to.equal(getAddress(receiver));

    await sendFrom(0, { to: receiver, data: receiverAbi.encodeFunctionData('setRefuse', [true]) });
    await expectRpcError(
      rpc('eth_call', [{ from: A1, to: COLLECTIBLE, data: nft.encodeFunctionData('safeTransferFrom(address,address,uint256)', [A1, receiver, 4]) }, 'latest']),
      3,
      /^execution reverted: CollectibleReceiver: refused$/,
    );
  });

  it('answers ERC-165 for ERC-165, ERC-721 and its metadata (not 0xffffffff), and tokenURI in decimal', async () => {
    for (const id of ['0x01ffc9a7', '0x80ac58cd', '0x5b5e139f']) expect(await read('supportsInterface', [id]), id).to.equal(true);
    for (const id of ['0xffffffff', '0x36372b07']) expect(await read('supportsInterface', [id]), id).to.equal(false);
    expect(await read('tokenURI', [5])).to.equal('https://chain-sim.invalid/collectible/5');
    // The id in decimal, from 0 to the largest.
    for (const id of [0n, 1234567890n, 2n ** 256n - 1n]) {
      await act(0, 'mint', [A1, id]);
      expect(await read('tokenURI', [id])).to.equal(`https://chain-sim.invalid/collectible/${id}`);
    }
  });
});
