// Renders results as one markdown table: a row per metric, a column per
// target, then chain-sim's figure divided by each peer's (over HTTP), and the
// in-process provider's divided by Hardhat's in-process network's.
import type { TargetName } from './targets.js';

export type Cell = { value: number } | { skipped: string } | { error: string };

export interface Row {
  label: string;
  unit: string;
  higherIsBetter: boolean;
  cells: Partial<Record<TargetName, Cell>>;
}

const PEERS: readonly TargetName[] = ['ganache', 'hardhat', 'anvil'];
const CHAIN_SIM: readonly TargetName[] = ['chain-sim', 'chain-sim-inproc'];
/** In-process pairs, like for like (no HTTP on either side): [ours, peer]. */
const INPROC_PAIRS: readonly (readonly [TargetName, TargetName])[] = [['chain-sim-inproc', 'hardhat-inproc']];

const numberOf = (cell: Cell | undefined): number | undefined => (cell !== undefined && 'value' in cell ? cell.value : undefined);

function formatValue(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  return value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function formatCell(cell: Cell | undefined): string {
  if (cell === undefined) return '—'; // not applicable, e.g. the RSS of an in-process provider
  if ('value' in cell) return formatValue(cell.value);
  return 'error' in cell ? 'error' : 'skipped';
}

const formatRatio = (ratio: number): string => `${ratio >= 10 ? ratio.toFixed(0) : ratio.toPrecision(2)}x`;

/** `notes` are extra footnotes (observations) printed after the skip and error lines. */
export function renderTable(rows: readonly Row[], targets: readonly TargetName[], notes: readonly string[] = []): string {
  // Ratios use the HTTP CLI (like-for-like with the peers); the in-process provider stands in if the CLI did not run.
  const base = CHAIN_SIM.find((name) => targets.includes(name) && rows.some((row) => numberOf(row.cells[name]) !== undefined));
  const peers = base === undefined ? [] : PEERS.filter((peer) => targets.includes(peer));

  const pairs: (readonly [TargetName, TargetName])[] = [
    ...peers.map((peer) => [base!, peer] as const),
    ...INPROC_PAIRS.filter(([ours, peer]) => targets.includes(ours) && targets.includes(peer)),
  ];

  const header = ['metric', ...targets, ...pairs.map(([ours, peer]) => `${ours}/${peer}`)];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const row of rows) {
    const direction = row.higherIsBetter ? 'higher is better' : 'lower is better';
    const cells = [`${row.label} (${row.unit}, ${direction})`, ...targets.map((target) => formatCell(row.cells[target]))];
    for (const [ours, peer] of pairs) {
      const mine = numberOf(row.cells[ours]);
      const theirs = numberOf(row.cells[peer]);
      cells.push(mine !== undefined && theirs !== undefined && theirs > 0 ? formatRatio(mine / theirs) : '');
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }

  // Skips are per target (one line each); errors are per cell.
  const footnotes = new Set<string>();
  for (const row of rows) {
    for (const target of targets) {
      const cell = row.cells[target];
      if (cell !== undefined && 'skipped' in cell) footnotes.add(`- ${target} skipped: ${cell.skipped}`);
      if (cell !== undefined && 'error' in cell) footnotes.add(`- ${target}, ${row.label}: ${cell.error}`);
    }
  }
  for (const note of notes) footnotes.add(note);
  return footnotes.size === 0 ? lines.join('\n') : `${lines.join('\n')}\n\n${[...footnotes].join('\n')}`;
}
