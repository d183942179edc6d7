/** Which rules an upstream block follows, as its header's fields show them. */

/**
 * The rules a header's fields show: the newest fork whose fields it has (a field present is
 * neither undefined nor null); before London, Berlin's. `merged`: its difficulty is 0.
 */
export function hardforkOfFields(
  header: { readonly requestsHash?: unknown; readonly parentBeaconBlockRoot?: unknown; readonly withdrawalsRoot?: unknown; readonly baseFeePerGas?: unknown },
  merged: boolean,
): string {
  const has = (value: unknown) => value !== undefined && value !== null;
  if (has(header.requestsHash)) return 'prague';
  if (has(header.parentBeaconBlockRoot)) return 'cancun';
  if (has(header.withdrawalsRoot)) return 'shanghai';
  if (has(header.baseFeePerGas)) return merged ? 'paris' : 'london';
  return 'berlin';
}
