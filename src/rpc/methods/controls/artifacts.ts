/**
 * chain_loadArtifacts: the project's compiler output at run time (after a recompile, or for a
 * project the node was not started in): a file or folder path, read at once, or the output
 * itself as a value (a build-info, `{ input, output }`, or solc's standard-JSON output).
 * What is loaded names contracts in traces and decodes their errors (docs/contracts.md).
 */
import { ArtifactsError } from '../../../contracts/artifactFiles.js';
import { type Decoder, fail } from '../../codec.js';
import { invalidParams, serverError } from '../../errors.js';
import { defineMethod, param } from '../../method.js';

/** A path (non-empty string) or compiler output (an object). */
const artifactSource: Decoder<string | object> = (value, path) => {
  if (typeof value === 'string') {
    if (value.trim() === '') fail(path, 'expected a file or folder path, got an empty string');
    return value;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  fail(path, 'expected a file or folder path, or compiler output as an object');
};

export const artifactMethods = [
  defineMethod('chain_loadArtifacts', [param('source', artifactSource)], ({ contracts }, source) => {
    if (!contracts) throw serverError('artifacts are not available on this node');
    try {
      const summary = typeof source === 'string' ? contracts.loadPath(source) : contracts.loadOutput(source);
      return { files: summary.files, contracts: [...summary.contracts] };
    } catch (error) {
      if (error instanceof ArtifactsError) throw invalidParams(`invalid argument 0 (source): ${error.message.replace(/^artifacts: /, '')}`);
      throw error;
    }
  }),
];
