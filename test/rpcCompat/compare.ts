/**
 * How an answer is judged against the recorded one, as hive's rpc-compat simulator judges
 * it (simulators/ethereum/rpc-compat/main.go): the whole response object must match, with
 * numbers compared by value; where both the answer and the recording hold an `error` object
 * at the same place (top level, or nested like eth_simulateV1's calls[].error), its
 * `message` is left out of the comparison (client wording), but its code and data count.
 */

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Remove `message` from every `error` object present in both trees (not descending into errors). */
export function redactErrorMessages(actual: JsonValue, expected: JsonValue): { actual: JsonValue; expected: JsonValue; redacted: boolean } {
  let redacted = false;
  const walk = (a: JsonValue, e: JsonValue): [JsonValue, JsonValue] => {
    if (Array.isArray(e) && Array.isArray(a)) {
      const pairs = a.map((item, i) => (i < e.length ? walk(item, e[i]!) : ([item, undefined] as const)));
      return [pairs.map((p) => p[0]) as JsonValue[], e.map((item, i) => (i < a.length ? pairs[i]![1]! : item))];
    }
    if (isObject(e) && isObject(a)) {
      const outA: { [key: string]: JsonValue } = { ...a };
      const outE: { [key: string]: JsonValue } = { ...e };
      for (const key of Object.keys(e)) {
        if (!(key in a)) continue;
        if (key === 'error') {
          const ea = a[key]!;
          const ee = e[key]!;
          if (isObject(ea) && isObject(ee) && 'message' in ea && 'message' in ee) {
            const { message: _a, ...restA } = ea;
            const { message: _e, ...restE } = ee;
            outA[key] = restA;
            outE[key] = restE;
            redacted = true;
          }
          continue;
        }
        [outA[key], outE[key]] = walk(a[key]!, e[key]!);
      }
      return [outA, outE];
    }
    return [a, e];
  };
  const [outA, outE] = walk(actual, expected);
  return { actual: outA, expected: outE, redacted };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The differences between two JSON values as `path: client ... ++ recorded ...` lines (empty: a full match). */
export function jsonDifferences(actual: JsonValue | undefined, expected: JsonValue | undefined, path = '$', out: string[] = [], limit = 12): string[] {
  if (out.length >= limit) return out;
  if (typeof actual === 'number' && typeof expected === 'number') {
    if (actual !== expected) out.push(`${path}: -- ${actual} ++ ${expected}`);
    return out;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) out.push(`${path}: -- ${actual.length} items ++ ${expected.length} items`);
    for (let i = 0; i < Math.min(actual.length, expected.length); i++) jsonDifferences(actual[i], expected[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (isObject(actual) && isObject(expected)) {
    for (const key of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
      if (!(key in actual)) out.push(`${path}.${key}: missing ++ ${short(expected[key])}`);
      else if (!(key in expected)) out.push(`${path}.${key}: -- ${short(actual[key])} (not recorded)`);
      else jsonDifferences(actual[key], expected[key], `${path}.${key}`, out, limit);
      if (out.length >= limit) break;
    }
    return out;
  }
  if (actual !== expected) out.push(`${path}: -- ${short(actual)} ++ ${short(expected)}`);
  return out;
}

function short(value: JsonValue | undefined): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** Judge one answer: the differences hive would report (empty when it would pass). */
export function judge(answerText: string, recordedText: string): string[] {
  let answer: JsonValue;
  try {
    answer = JSON.parse(answerText) as JsonValue;
  } catch {
    return [`answer is not JSON: ${answerText.slice(0, 160)}`];
  }
  const { actual, expected } = redactErrorMessages(answer, JSON.parse(recordedText) as JsonValue);
  return jsonDifferences(actual, expected);
}
