import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { OPTION_DECLARATIONS } from '../../src/options.js';
import { methodReference, optionReference } from '../../src/rpc/reference.js';
import { buildMethodTable } from '../../src/rpc/table.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Compares a generated file with its checked-in copy; UPDATE_DOCS=1 (npm run docs) rewrites it instead. */
function expectCurrent(relative: string, generated: string): void {
  const file = path.join(root, relative);
  if (process.env.UPDATE_DOCS === '1') writeFileSync(file, generated);
  const current = readFileSync(file, 'utf8');
  expect(current, `${relative} is stale: run npm run docs`).to.equal(generated);
}

function helpText(): string {
  // Not a terminal: yargs wraps at its 110-column default, as in CI logs.
  return execFileSync(process.execPath, [path.join(root, 'bin/chain-sim.js'), '--help'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '' } });
}

describe('generated references (docs/reference)', () => {
  it('methods.md lists every name the method table serves, its parameters and the record behind it', () => {
    expectCurrent('docs/reference/methods.md', methodReference(buildMethodTable()));
  });

  it('options.md lists every option declaration and the CLI help as it prints', () => {
    expectCurrent('docs/reference/options.md', optionReference(OPTION_DECLARATIONS, helpText()));
  });

  it('a method added to the table makes the method reference stale', () => {
    const table = buildMethodTable();
    const withExtra = new Map(table);
    withExtra.set('eth_madeUp', table.get('eth_chainId')!);
    expect(methodReference(withExtra)).to.not.equal(methodReference(table));
  });
});
