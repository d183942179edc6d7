/**
 * The nearest known name to a misspelt one, for "unknown option 'acounts': did you mean 'accounts'?".
 * Distance is counted in edits (insert, delete, replace, swap two neighbours: the usual typos),
 * ignoring case; a name further than a third of its length away is not suggested (a guess that far
 * off misleads more than it helps).
 */
import { UnknownOptionError } from './values.js';

/** Edits between a and b: insertions, deletions, replacements and swaps of adjacent characters (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The suggestion for `given` among `known`: pairs of a name to compare with (an option, one of its
 * aliases or flags) and the name to suggest for it (the option). The first of equally near names wins.
 */
export function nearestName(given: string, known: Iterable<readonly [name: string, suggestion: string]>): string | undefined {
  const wanted = given.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: { distance: number; suggestion: string } | undefined;
  for (const [name, suggestion] of known) {
    // Lengths further apart than the limit are further apart in edits too (and a 100 KB name costs nothing).
    if (Math.abs(name.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { distance, suggestion };
  }
  return best?.suggestion;
}

/** Throws UnknownOptionError for the first key of the object `value` (option `option`) that is not in `allowed`. */
export function refuseUnknownKeys(option: string, value: object, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new UnknownOptionError(
        `${option}.${key}`,
        nearestName(
          key,
          allowed.map((name) => [name, `${option}.${name}`] as const),
        ),
      );
    }
  }
}
