// Own-property lookup: keys come from user programs, so a name such as
// `constructor` or `__proto__` must never reach Object.prototype.

export function own<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}
