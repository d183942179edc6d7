import { expect } from 'chai';
import { renderTable, type Row } from '../../bench/report.js';

const rows: Row[] = [
  {
    label: 'ETH transfers',
    unit: 'tx/s',
    higherIsBetter: true,
    cells: { 'chain-sim': { value: 300 }, 'chain-sim-inproc': { value: 900 }, hardhat: { value: 400 }, 'hardhat-inproc': { value: 600 } },
  },
  { label: 'resident memory after workloads', unit: 'MB', higherIsBetter: false, cells: { 'chain-sim': { value: 150 }, hardhat: { value: 170 } } },
];

const columns = (table: string): string[][] =>
  table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

describe('bench table (bench/report.ts)', () => {
  it('adds the chain-sim-inproc/hardhat-inproc ratio beside the HTTP ratios when both ran', () => {
    const [header, , transfers, memory] = columns(renderTable(rows, ['chain-sim', 'chain-sim-inproc', 'hardhat', 'hardhat-inproc']));
    expect(header).to.deep.equal([
      'metric',
      'chain-sim',
      'chain-sim-inproc',
      'hardhat',
      'hardhat-inproc',
      'chain-sim/hardhat',
      'chain-sim-inproc/hardhat-inproc',
    ]);
    // 300/400 over HTTP, 900/600 in process; no in-process RSS, so no in-process memory ratio.
    expect(transfers!.slice(-2)).to.deep.equal(['0.75x', '1.5x']);
    expect(memory!.slice(3)).to.deep.equal(['170', '—', '0.88x', '']);
  });

  it('gives the in-process ratio alone when only the in-process targets ran', () => {
    const inproc = rows.map((row) => ({ ...row, cells: { 'chain-sim-inproc': row.cells['chain-sim-inproc'], 'hardhat-inproc': row.cells['hardhat-inproc'] } }));
    const [header, , transfers] = columns(renderTable(inproc, ['chain-sim-inproc', 'hardhat-inproc']));
    expect(header).to.deep.equal(['metric', 'chain-sim-inproc', 'hardhat-inproc', 'chain-sim-inproc/hardhat-inproc']);
    expect(transfers!.slice(1)).to.deep.equal(['900', '600', '1.5x']);
  });

  it('has no in-process ratio column without hardhat-inproc', () => {
    const [header] = columns(renderTable(rows, ['chain-sim', 'chain-sim-inproc', 'hardhat']));
    expect(header).to.deep.equal(['metric', 'chain-sim', 'chain-sim-inproc', 'hardhat', 'chain-sim/hardhat']);
  });
});
