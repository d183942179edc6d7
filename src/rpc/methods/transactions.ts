/** Submitting transactions and signing with the node's owned accounts. */
import { personalMessageDigest, signDigest } from '../../engine/accounts/signing.js';
import { sendOptionsOf } from '../clientRules.js';
import { address, callRequest, data } from '../codec.js';
import { encodeData } from '../encode.js';
import { invalidParams } from '../errors.js';
import { defineMethod, param } from '../method.js';
import { parseTypedData, TypedDataError, typedDataDigest } from '../typedData.js';

/** The digest eth_signTypedData_v4 signs; bad typed data is -32602 naming the field. */
const typedData = (value: unknown, path: string): Uint8Array => {
  try {
    return typedDataDigest(parseTypedData(value));
  } catch (error) {
    if (error instanceof TypedDataError) throw invalidParams(`invalid argument ${path}: ${error.message}`);
    // A recursive struct type with a message nested deeper than the stack allows.
    if (error instanceof RangeError) throw invalidParams(`invalid argument ${path}: typed data nested too deeply`);
    throw error;
  }
};

export const transactionMethods = [
  // chain-sim's own names answer the hash for every client: a failure shows as the receipt's status 0.
  defineMethod('chain_sendRawTransaction', [param('signedTransaction', data)], ({ chain }, raw) => chain.submitRawTransaction(raw)),
  defineMethod('chain_sendTransaction', [param('transaction', callRequest)], ({ chain }, request) => chain.sendTransaction(request)),
  // The eth_ names answer as the client's tool does (clientRules.ts): the hash, as go-ethereum and
  // Anvil; for Hardhat's clients, once the block is in, and a failure as Hardhat's error (hardhatErrors.ts).
  defineMethod('eth_sendRawTransaction', [param('signedTransaction', data)], ({ chain, rules }, raw) => chain.submitRawTransaction(raw, sendOptionsOf(rules))),
  defineMethod('eth_sendTransaction', [param('transaction', callRequest)], ({ chain, rules }, request) => chain.sendTransaction(request, sendOptionsOf(rules))),
  defineMethod(
    { name: 'chain_sendUnsignedTransaction', aliases: ['eth_sendUnsignedTransaction'] },
    [param('transaction', callRequest)],
    async ({ chain }, request) => chain.sendUnsignedTransaction(request),
  ),
  defineMethod({ name: 'chain_signTransaction', aliases: ['eth_signTransaction'] }, [param('transaction', callRequest)], async ({ chain }, request) =>
    encodeData(await chain.signTransaction(request)),
  ),
  defineMethod({ name: 'chain_sign', aliases: ['eth_sign'] }, [param('address', address), param('message', data)], ({ chain }, who, message) =>
    encodeData(signDigest(chain.accounts, who, personalMessageDigest(message))),
  ),
  defineMethod('personal_sign', [param('message', data), param('address', address)], ({ chain }, message, who) =>
    encodeData(signDigest(chain.accounts, who, personalMessageDigest(message))),
  ),
  defineMethod(
    { name: 'chain_signTypedData_v4', aliases: ['eth_signTypedData_v4', 'eth_signTypedData'] },
    [param('address', address), param('typedData', typedData)],
    ({ chain }, who, digest) => encodeData(signDigest(chain.accounts, who, digest)),
  ),
];
