/**
 * The first field an EIP-712 message lacks, for the error message: viem hashes a message with
 * a missing field into `Cannot convert undefined to a BigInt` or `Address "undefined" is
 * invalid`, which name neither the field nor where it is. Walked only after viem has refused
 * the data, so it never changes what is signed.
 */
interface TypedField {
  readonly name: string;
  readonly type: string;
}

/** `Person[]` / `Person[3]` → `Person`; `uint256` → `uint256`. */
const baseType = (type: string): string => type.replace(/(\[\d*\])+$/, '');

/** "missing value for field message.from.wallet of type address", or undefined if nothing is missing. */
export function missingTypedDataField(input: { types?: unknown; primaryType?: unknown; domain?: unknown; message?: unknown }): string | undefined {
  const types = input.types as Record<string, readonly TypedField[] | undefined> | undefined;
  if (typeof types !== 'object' || types === null) return undefined;
  const seen = new Set<unknown>();

  function walk(type: string, value: unknown, path: string): string | undefined {
    const fields = types![type];
    if (!Array.isArray(fields) || typeof value !== 'object' || value === null || seen.has(value)) return undefined;
    seen.add(value);
    for (const field of fields as readonly TypedField[]) {
      if (typeof field?.name !== 'string' || typeof field.type !== 'string') continue;
      const at = `${path}.${field.name}`;
      const item = (value as Record<string, unknown>)[field.name];
      if (item === undefined || item === null) return `missing value for field ${at} of type ${field.type}`;
      const base = baseType(field.type);
      if (!Array.isArray(types![base])) continue;
      const found = field.type === base ? walk(base, item, at) : walkArray(field.type, item, at);
      if (found) return found;
    }
    return undefined;
  }

  /** Elements of a (possibly nested) array of structs. */
  function walkArray(type: string, value: unknown, path: string): string | undefined {
    if (!Array.isArray(value)) return undefined;
    const inner = type.replace(/\[\d*\]$/, '');
    for (let i = 0; i < value.length; i++) {
      const at = `${path}[${i}]`;
      if (value[i] === undefined || value[i] === null) return `missing value for field ${at} of type ${inner}`;
      const found = inner === baseType(inner) ? walk(inner, value[i], at) : walkArray(inner, value[i], at);
      if (found) return found;
    }
    return undefined;
  }

  return (
    walk('EIP712Domain', input.domain, 'domain') ?? (typeof input.primaryType === 'string' ? walk(input.primaryType, input.message, 'message') : undefined)
  );
}
