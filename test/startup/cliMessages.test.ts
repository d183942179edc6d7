/**
 * The CLI's one-line errors never echo a large input (issue 25, item 7): a flag value, an
 * unknown flag or a file name of 100 KB is shown as its first characters and its size, as
 * JSON-RPC errors show it, whether the message is ours or yargs'.
 */
import { expect } from 'chai';
import { runCli } from '../helpers/cli.js';

const BIG = 'A'.repeat(100_000);
// Long enough for a list of choices (yargs names every hardfork), far below the input.
const MAX_LINE = 1000;

describe('CLI: error messages clip long inputs', function () {
  this.timeout(60_000);

  const cases: Array<[label: string, args: string[], message: RegExp]> = [
    ['a 100 KB --hardfork (yargs: not a choice)', ['--hardfork', BIG], /hardfork.*A{64}… \(100000 bytes\)/],
    ['a 100 KB --chain-id', ['--chain-id', BIG], /chain-id/],
    ['a 100 KB unknown flag (yargs)', [`--${BIG}`], /Unknown argument: A{64}… \(100000 bytes\)/],
    ['a 100 KB --state file name', ['--state', `/tmp/${BIG}`], /^chain-sim: state file \/tmp\/A{59}… \(\d+ bytes\)/],
    ['a 100 KB --genesis file name', ['--genesis', `/tmp/${BIG}`], /^chain-sim: genesis file \/tmp\/A{59}… \(\d+ bytes\)/],
    ['a 100 KB --import file name', ['--import', `/tmp/${BIG}`], /^chain-sim: import \/tmp\/A{59}… \(\d+ bytes\)/],
    ['a 100 KB export --rpc-url', ['export', '/tmp/out.rlp', '--rpc-url', `http://127.0.0.1:1/${BIG}`], /^chain-sim: export: .*A… \(\d+ bytes\)/],
  ];
  for (const [label, args, message] of cases) {
    it(`${label}: exit code 1, one short line`, async () => {
      const { code, stderr } = await runCli(args[0] === 'export' ? args : ['--port', '0', '--quiet', ...args]);
      expect(code, stderr.slice(0, 300)).to.equal(1);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr.slice(0, 300)).to.have.length(1);
      expect(lines[0]!.length, lines[0]!.slice(0, 300)).to.be.below(MAX_LINE);
      expect(lines[0]).to.match(message);
    });
  }
});
