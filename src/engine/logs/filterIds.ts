/**
 * Filter ids: 128-bit values a client cannot predict from the ids it has seen,
 * and that never repeat while the node lives. A counter encrypted with AES-128
 * under a random per-node key is a permutation of the counter: distinct counters
 * give distinct ids, without keeping every id ever issued.
 */
import { createCipheriv, randomBytes } from 'node:crypto';

export class FilterIdSource {
  private readonly key = randomBytes(16);
  private counter = 0n;

  next(): bigint {
    const block = Buffer.alloc(16);
    block.writeBigUInt64BE(this.counter++, 8);
    const cipher = createCipheriv('aes-128-ecb', this.key, null).setAutoPadding(false);
    const id = Buffer.concat([cipher.update(block), cipher.final()]);
    return BigInt(`0x${id.toString('hex')}`);
  }
}
