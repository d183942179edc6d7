/** How the page writes quantities, hashes and times. */

export const toBig = (hex: string | undefined | null): bigint => (hex ? BigInt(hex) : 0n);
export const toNumber = (hex: string | undefined | null): number => Number(toBig(hex));
export const toHex = (value: bigint | number): string => `0x${value.toString(16)}`;

/** Wei as ether with up to 6 decimals, trailing zeros dropped: `1.5 ETH`; a tiny amount in wei. */
export function ether(wei: bigint): string {
  const negative = wei < 0n;
  const abs = negative ? -wei : wei;
  // Below a millionth of an ether the decimals shown would read 0: such amounts are shown in wei.
  if (abs > 0n && abs < 10n ** 12n) return `${wei} wei`;
  const whole = abs / 10n ** 18n;
  const fraction = (abs % 10n ** 18n).toString().padStart(18, '0').slice(0, 6).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole.toLocaleString('en-US')}${fraction ? `.${fraction}` : ''} ETH`;
}

/** Wei per gas as gwei: `1.875 gwei`. */
export function gwei(wei: bigint): string {
  const whole = wei / 10n ** 9n;
  const fraction = (wei % 10n ** 9n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} gwei`;
}

/** `0x1234…cdef`. */
export const short = (hex: string, keep = 6): string => (hex.length <= keep * 2 + 3 ? hex : `${hex.slice(0, keep + 2)}…${hex.slice(-keep)}`);

/** Seconds since the epoch (hex) as a local time, and how long ago. */
export function when(timestamp: string): string {
  const seconds = toNumber(timestamp);
  const ago = Math.round(Date.now() / 1000 - seconds);
  const at = new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  if (ago < 0) return `${at} (in ${-ago} s)`;
  return `${at} (${ago < 120 ? `${ago} s` : ago < 7200 ? `${Math.round(ago / 60)} min` : `${Math.round(ago / 3600)} h`} ago)`;
}

/** What a search box entry names: a block, a transaction (or block) hash, or an address. */
export type SearchTarget = { kind: 'block'; number: bigint } | { kind: 'hash'; hash: string } | { kind: 'address'; address: string } | { kind: 'invalid' };

export function searchTarget(text: string): SearchTarget {
  const value = text.trim();
  if (/^\d+$/.test(value)) return { kind: 'block', number: BigInt(value) };
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { kind: 'hash', hash: value.toLowerCase() };
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return { kind: 'address', address: value.toLowerCase() };
  if (/^0x[0-9a-fA-F]{1,16}$/.test(value)) return { kind: 'block', number: BigInt(value) };
  return { kind: 'invalid' };
}
