/** chain_compileSerpent: Serpent source → contract creation code (SPEC 4.2). */
import { SerpentError, compileSerpent } from '../../serpent/index.js';
import { string } from '../codec.js';
import { encodeData } from '../encode.js';
import { ErrorCode, RpcError } from '../errors.js';
import { defineMethod, param } from '../method.js';

/** Largest source accepted over RPC; the HTTP body limit bounds it too. */
const MAX_SOURCE_CHARS = 1_000_000;

export const compilerMethods = [
  defineMethod({ name: 'chain_compileSerpent', aliases: ['eth_compileSerpent'] }, [param('source', string)], (_ctx, source) => {
    if (source.length > MAX_SOURCE_CHARS) {
      throw new RpcError(ErrorCode.invalidParams, `invalid argument 0 (source): longer than ${MAX_SOURCE_CHARS} characters`);
    }
    try {
      return encodeData(compileSerpent(source).bytecode);
    } catch (error) {
      if (error instanceof SerpentError) {
        // Syntax errors are bad params; semantic errors are understood but refused.
        throw new RpcError(error.kind === 'syntax' ? ErrorCode.invalidParams : ErrorCode.server, error.message, {
          line: error.line,
          column: error.column,
        });
      }
      throw error;
    }
  }),
];
