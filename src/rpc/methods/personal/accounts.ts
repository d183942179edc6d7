/**
 * go-ethereum's personal_* methods, as Ganache serves them: accounts created, imported, listed,
 * locked and unlocked at run time, transactions sent and signed with a passphrase, and
 * personal_sign. Passphrases and locks live in the engine (accountLocks.ts).
 */
import { randomBytes } from 'node:crypto';
import { addressOfKey, curve, personalMessageDigest, signDigest } from '../../../engine/index.js';
import { address, callRequest, data, string, uint64 } from '../../codec.js';
import { encodeData } from '../../encode.js';
import { invalidParams, serverError } from '../../errors.js';
import { defineMethod, optionalParam, param } from '../../method.js';

/** personal_unlockAccount's duration: seconds as a JSON number or a quantity; 0 means until locked. */
const seconds = (value: unknown, path: string): number => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid argument ${path}: expected a non-negative number of seconds`);
    return value;
  }
  const parsed = uint64(value, path);
  if (parsed > 2n ** 32n) throw invalidParams(`invalid argument ${path}: at most ${2n ** 32n} seconds`);
  return Number(parsed);
};

/** A raw private key: 32 bytes of hex, with or without 0x (go-ethereum takes it without). */
const privateKey = (value: unknown, path: string): Uint8Array => {
  if (typeof value !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(value)) throw invalidParams(`invalid argument ${path}: expected hex`);
  const bytes = Uint8Array.from(Buffer.from(value.replace(/^0x/, ''), 'hex'));
  if (bytes.length !== 32) throw invalidParams(`invalid argument ${path}: expected 32 bytes of private key, got ${bytes.length}`);
  if (!curve().isPrivateKey(bytes)) throw invalidParams(`invalid argument ${path}: not a valid secp256k1 private key`);
  return bytes;
};

/** go-ethereum's default unlock duration. */
const DEFAULT_UNLOCK_SECONDS = 300;

export const personalMethods = [
  defineMethod('personal_newAccount', [param('passphrase', string)], async ({ chain }, passphrase) => {
    let key: Uint8Array;
    do key = randomBytes(32);
    while (!curve().isPrivateKey(key));
    const account = { address: addressOfKey(key), privateKey: key };
    await chain.addLockedAccount(account, passphrase);
    return account.address.toString();
  }),
  // An account the node holds already keeps its passphrase and lock, as in Ganache.
  defineMethod('personal_importRawKey', [param('privateKey', privateKey), param('passphrase', string)], async ({ chain }, key, passphrase) => {
    const account = { address: addressOfKey(key), privateKey: key };
    await chain.addLockedAccount(account, passphrase);
    return account.address.toString();
  }),
  defineMethod('personal_listAccounts', [], ({ chain }) => chain.accounts.addresses().map((a) => a.toString())),
  defineMethod(
    'personal_unlockAccount',
    [param('address', address), param('passphrase', string), optionalParam('duration', seconds)],
    async ({ chain }, who, passphrase, duration) => {
      if (!(await chain.unlockAccount(who, passphrase, duration ?? DEFAULT_UNLOCK_SECONDS))) throw serverError('no key for given address or file');
      return true;
    },
  ),
  defineMethod('personal_lockAccount', [param('address', address)], ({ chain }, who) => chain.lockAccount(who)),
  defineMethod('personal_sendTransaction', [param('transaction', callRequest), param('passphrase', string)], ({ chain }, request, passphrase) =>
    chain.sendWithPassphrase(request, passphrase),
  ),
  // Ganache answers the signed transaction's bytes (go-ethereum: { raw, tx }).
  defineMethod('personal_signTransaction', [param('transaction', callRequest), param('passphrase', string)], async ({ chain }, request, passphrase) =>
    encodeData(await chain.signTransaction(request, passphrase)),
  ),
  defineMethod('personal_sign', [param('message', data), param('address', address)], ({ chain }, message, who) =>
    encodeData(signDigest(chain.accounts, who, personalMessageDigest(message))),
  ),
];
