/** Submitting transactions and signing with the node's owned accounts. */
import type { hashTypedData } from 'viem';
import { personalMessageDigest, signDigest } from '../../engine/accounts/signing.js';
import { address, callRequest, data } from '../codec.js';
import { encodeData } from '../encode.js';
import { invalidParams } from '../errors.js';
import { defineMethod, param } from '../method.js';
import { clipLongRuns } from '../../engine/util/clip.js';
import { missingTypedDataField } from '../typedDataFields.js';

type TypedDataInput = Parameters<typeof hashTypedData>[0];

/** EIP-712 typed data arrives as an object or as its JSON text (MetaMask sends text). */
const typedData = (value: unknown, path: string): TypedDataInput => {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalidParams(`invalid argument ${path}: typed data is not valid JSON`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidParams(`invalid argument ${path}: expected EIP-712 typed data (types, primaryType, domain, message)`);
  }
  const fields = parsed as Record<string, unknown>;
  for (const key of ['types', 'primaryType', 'message']) {
    if (fields[key] === undefined) throw invalidParams(`invalid argument ${path}: typed data is missing "${key}"`);
  }
  return parsed as TypedDataInput;
};

/** viem's EIP-712 hashing, loaded on first use so that start-up does not pay for it. */
async function typedDataDigest(input: TypedDataInput, path: string): Promise<Uint8Array> {
  const viem = await import('viem');
  try {
    return Buffer.from(viem.hashTypedData(input).slice(2), 'hex');
  } catch (error) {
    // viem's message quotes the offending type or value, which may be as long as the request;
    // for a field the message lacks it names neither the field nor its place, so that is said instead.
    const reason = clipLongRuns(missingTypedDataField(input) ?? (error instanceof Error ? error.message.split('\n')[0]! : String(error)));
    throw invalidParams(`invalid argument ${path}: ${reason}`);
  }
}

export const transactionMethods = [
  defineMethod({ name: 'chain_sendRawTransaction', aliases: ['eth_sendRawTransaction'] }, [param('signedTransaction', data)], async ({ chain }, raw) =>
    chain.submitRawTransaction(raw),
  ),
  defineMethod({ name: 'chain_sendTransaction', aliases: ['eth_sendTransaction'] }, [param('transaction', callRequest)], async ({ chain }, request) =>
    chain.sendTransaction(request),
  ),
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
    async ({ chain }, who, input) => encodeData(signDigest(chain.accounts, who, await typedDataDigest(input, '1 (typedData)'))),
  ),
];
