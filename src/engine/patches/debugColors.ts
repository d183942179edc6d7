/**
 * @ethereumjs/mpt creates a `debug` logger in every trie it constructs (three per block:
 * transactions, receipts, withdrawals), and `debug` asks the kernel whether stderr is a
 * terminal for each one: 2-3% of a transfer's CPU time. The answer is the same for the
 * life of the process, so it is asked once. Loggers behave as before (DEBUG_COLORS included).
 */
import createDebug from 'debug';

/** Where `debug` keeps the question in its Node build (not in @types/debug). */
const settings = createDebug as unknown as { useColors: () => boolean };

/** Later calls find the remembered answer in place (no second question). */
export function askTerminalColorsOnce(): void {
  const colors = settings.useColors();
  settings.useColors = () => colors;
}
