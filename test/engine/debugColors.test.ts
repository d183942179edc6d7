import tty from 'node:tty';
import { expect } from 'chai';
import createDebug from 'debug';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { askTerminalColorsOnce } from '../../src/engine/patches/debugColors.js';

describe('engine/debugColors', () => {
  it('constructing a trie no longer asks whether stderr is a terminal, and debug gets the same answer', () => {
    const expected = tty.isatty(process.stderr.fd);
    askTerminalColorsOnce();
    const realIsatty = tty.isatty;
    let asked = 0;
    tty.isatty = (fd: number) => {
      asked++;
      return realIsatty(fd);
    };
    try {
      for (let i = 0; i < 3; i++) new MerklePatriciaTrie();
      expect(asked).to.equal(0);
      const logger = createDebug('chain-sim:test') as unknown as { useColors: boolean }; // set by debug, untyped
      expect(logger.useColors).to.equal(expected);
    } finally {
      tty.isatty = realIsatty;
    }
  });
});
