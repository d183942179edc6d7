/**
 * Error messages name what was wrong, but never echo a large input back: a 4 MB method name
 * or a 40 KB EIP-712 type would otherwise travel back whole in the error (and into logs).
 * Every message that interpolates a value from outside goes through `clip`; `clipLongRuns`
 * is the backstop the RPC layer applies to every error message it answers with.
 */

/** Values up to this many characters are shown whole. */
export const CLIP_CHARS = 64;

/** `text` as it is when short; else its first CLIP_CHARS characters and its size: `abc… (4194304 bytes)`. */
export function clip(text: string, max = CLIP_CHARS): string {
  if (text.length <= max) return text;
  // Not splitting a surrogate pair keeps the result valid UTF-16 (JSON.stringify would escape a lone half).
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${Buffer.byteLength(text, 'utf8')} bytes)`;
}

/** Runs of this many characters without a space are inputs, not prose. */
const LONG_RUN = /[^\s"'`]{257,}/g;

/**
 * Every run of more than 256 characters without a space or quote in `message`, clipped. No
 * message chain-sim writes has such a run of its own (hashes and addresses are 66 and 42).
 */
export function clipLongRuns(message: string): string {
  return message.length <= 256 ? message : message.replace(LONG_RUN, (run) => clip(run));
}
