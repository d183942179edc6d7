/**
 * The database under the state trie. @ethereumjs keys it by hex strings that it builds two
 * characters at a time, and V8 keeps such strings as ropes of ~30 linked pieces: stored as
 * Map keys for the life of the chain, they were about a sixth of the memory a block adds.
 * Keys are copied into flat strings when stored (lookups need no copy).
 */
import { MapDB } from '@ethereumjs/util';

export class FlatKeyMapDB extends MapDB<string, Uint8Array> {
  override async put(key: string, value: Uint8Array): Promise<void> {
    return super.put(Buffer.from(key, 'latin1').toString('latin1'), value);
  }
}
