/**
 * The method and option references in docs/reference/, rendered from the records themselves
 * (test/docs/reference.test.ts fails when the checked-in files differ; `npm run docs` rewrites them).
 */
import type { OptionDeclaration } from '../options/table.js';
import type { RpcMethod } from './method.js';
import type { MethodTable } from './table.js';

const GENERATED = 'Generated from the code by `npm run docs`; `npm test` fails when this file is stale.';

function paramList(method: RpcMethod): string {
  return method.params.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ');
}

/** Every record once, under its own name, with every other name that serves it. */
export function methodReference(table: MethodTable): string {
  const namesOf = new Map<RpcMethod, string[]>();
  for (const [name, method] of table) {
    const names = namesOf.get(method) ?? [];
    names.push(name);
    namesOf.set(method, names);
  }
  const rows = [...namesOf]
    .sort(([a], [b]) => a.name.localeCompare(b.name))
    .map(([method, names]) => {
      const others = names.filter((n) => n !== method.name).sort();
      return `| \`${method.name}\` | ${paramList(method) || '–'} | ${others.map((n) => `\`${n}\``).join(', ') || '–'} |`;
    });
  return [
    '# Method reference',
    '',
    GENERATED,
    `${table.size} names served by ${namesOf.size} methods. Parameters in \`[]\` are optional.`,
    'What each method does, with examples, is in [methods.md](../methods.md).',
    '',
    '| method | parameters | also served as |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The option declarations as a table, and the CLI's own --help text. */
export function optionReference(declarations: readonly OptionDeclaration[], helpText: string): string {
  const rows = declarations.map((d) => {
    const flags = [`--${d.flag}`, ...(d.alias ? [`-${d.alias}`] : [])].map((f) => `\`${f}\``).join(', ');
    const choices = d.choices ? ` (one of: ${d.choices.join(', ')})` : '';
    const repeat = d.array ? ' (repeatable)' : '';
    return `| ${flags} | \`${d.key}\` | ${d.defaultText.replace(/\|/g, '\\|')} | ${d.describe.replace(/\|/g, '\\|')}${choices}${repeat} |`;
  });
  return [
    '# Option reference',
    '',
    GENERATED,
    'The same options go to `npx chain-sim --flag`, `createProvider({ option })` and `createServer({ option })`.',
    '',
    '| flag | option | default | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    '## `npx chain-sim --help`',
    '',
    '```text',
    helpText.trimEnd(),
    '```',
    '',
  ].join('\n');
}
