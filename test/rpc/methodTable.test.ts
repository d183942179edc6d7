/**
 * The method table pinned: every name served, its parameters, and the record (by its own
 * name) that serves it, compared exactly with test/rpc/method-table.snapshot.json. A name
 * gained, lost or moved to another record fails here. After a deliberate change, rewrite
 * the file with UPDATE_METHOD_TABLE=1 (build first) and review its diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { withCompatForms } from '../../src/rpc/compatForms.js';
import { type RpcMethod, defineMethod, param } from '../../src/rpc/method.js';
import { type MethodTable, buildMethodTable } from '../../src/rpc/table.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SNAPSHOT = 'test/rpc/method-table.snapshot.json';

interface Entry {
  /** The name of the record that answers this name (the name itself unless it is an alias). */
  readonly record: string;
  /** Parameter names in order; optional ones in []. */
  readonly params: readonly string[];
}

function entry(method: RpcMethod): Entry {
  return { record: method.name, params: method.params.map((p) => (p.optional ? `[${p.name}]` : p.name)) };
}

function entries(table: MethodTable): Record<string, Entry> {
  return Object.fromEntries([...table.keys()].sort().map((name) => [name, entry(table.get(name)!)]));
}

/** The names whose record differs under compat 'ganache' (the chain-sim/ganache entry point). */
function ganacheForms(table: MethodTable): Record<string, Entry> {
  const ganache = withCompatForms(table, { compat: 'ganache', vmErrorsOnRPCResponse: false });
  const changed = [...ganache.keys()].filter((name) => ganache.get(name) !== table.get(name)).sort();
  return Object.fromEntries(changed.map((name) => [name, entry(ganache.get(name)!)]));
}

/** JSON with one line per name, so that a change reads as a one-line diff. */
function render(sections: Record<string, Record<string, Entry>>): string {
  const section = (entries: Record<string, Entry>) =>
    Object.entries(entries)
      .map(([name, e]) => `    ${JSON.stringify(name)}: ${JSON.stringify(e)}`)
      .join(',\n');
  const body = Object.entries(sections)
    .map(([key, entries]) => `  ${JSON.stringify(key)}: {\n${section(entries)}\n  }`)
    .join(',\n');
  return `{\n${body}\n}\n`;
}

describe('method table snapshot', () => {
  const table = buildMethodTable();

  it('serves exactly the names, parameters and records of method-table.snapshot.json', () => {
    const generated = render({ names: entries(table), ganacheForms: ganacheForms(table) });
    const file = path.join(root, SNAPSHOT);
    if (process.env.UPDATE_METHOD_TABLE === '1') writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8'), `${SNAPSHOT} differs: a name, parameter or record changed (UPDATE_METHOD_TABLE=1 rewrites it)`).to.equal(generated);
  });

  it('gives each record its own name: no two records share one', () => {
    const byName = new Map<string, RpcMethod>();
    for (const method of table.values()) {
      const other = byName.get(method.name);
      expect(other === undefined || other === method, `two records named ${method.name}`).to.equal(true);
      byName.set(method.name, method);
    }
  });

  it('serves every record under its own name', () => {
    for (const method of new Set(table.values())) expect(table.get(method.name), method.name).to.equal(method);
  });
});

describe('method records own their names', () => {
  const ctx = {} as never; // these handlers use no context
  const text = (value: unknown, path: string): string => {
    if (typeof value !== 'string') throw new Error(`${path}: expected a string`);
    return value;
  };
  const echo = defineMethod(
    {
      name: 'test_echo',
      aliases: ['eth_echo', 'other_echo'],
      answer: (value: { length: number; text: string }) => value.text,
      variants: [{ name: 'tool_echo', aliases: ['tool_echoToo'], answer: (value: { length: number; text: string }, input) => [value.length, input] }],
    },
    [param('text', text)],
    (_ctx, input) => ({ length: input.length, text: input }),
  );

  it('serves a record under its name and aliases, and each variant under its own with its own answer', async () => {
    const table = buildMethodTable([[echo]]);
    expect([...table.keys()].sort()).to.deep.equal(['eth_echo', 'other_echo', 'rpc_modules', 'test_echo', 'tool_echo', 'tool_echoToo']);
    expect(table.get('eth_echo')).to.equal(table.get('test_echo'));
    expect(table.get('other_echo')).to.equal(table.get('test_echo'));
    expect(table.get('tool_echoToo')).to.equal(table.get('tool_echo'));
    expect(table.get('tool_echo')!.name).to.equal('tool_echo');
    expect(await table.get('eth_echo')!.invoke(ctx, ['abc'])).to.equal('abc');
    expect(await table.get('tool_echoToo')!.invoke(ctx, ['abc'])).to.deep.equal([3, 'abc']);
  });

  it('answers to the same names in whichever group a record sits', () => {
    const alone = [...buildMethodTable([[echo]]).keys()].sort();
    const among = buildMethodTable([[defineMethod('test_first', [], () => null)], [echo]]);
    expect([...among.keys()].filter((name) => name !== 'test_first').sort()).to.deep.equal(alone);
  });

  it('refuses at start-up a name two records claim, naming both', () => {
    const claimant = defineMethod({ name: 'test_claimant', aliases: ['tool_echoToo'] }, [], () => null);
    expect(() => buildMethodTable([[echo], [claimant]])).to.throw(
      'the method name tool_echoToo is claimed twice: by the record tool_echo and by the record test_claimant',
    );
    const twice = defineMethod({ name: 'test_twice', aliases: ['test_twice'] }, [], () => null);
    expect(() => buildMethodTable([[twice]])).to.throw('the method name test_twice is claimed twice');
  });

  it('type-checks answers: a handler whose value is not JSON needs an answer', () => {
    // @ts-expect-error a bigint is not JSON: without `answer` this record does not compile
    const unanswered = defineMethod('test_bigint', [], () => 1n);
    const answered = defineMethod({ name: 'test_bigint', answer: (value: bigint) => value.toString() }, [], () => 1n);
    expect([unanswered.name, answered.name]).to.deep.equal(['test_bigint', 'test_bigint']);
  });

  it("checks a variant's parameters as its record does", async () => {
    const table = buildMethodTable([[echo]]);
    for (const name of ['test_echo', 'tool_echo']) {
      let error: unknown;
      await table
        .get(name)!
        .invoke(ctx, [])
        .catch((e: unknown) => (error = e));
      expect((error as Error).message, name).to.equal('missing value for required argument 0 (text)');
    }
  });
});
