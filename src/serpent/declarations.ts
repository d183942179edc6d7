// Declarations whose syntax maps to ABI metadata: parameter annotations,
// `event`, `extern` signatures and `type` groups.

import { isAst, isToken, show, type Ast, type Node } from './ast.js';
import { argKind, selectorOf, signatureOf, topicOf } from './abi.js';
import { semanticError } from './errors.js';
import { own } from './own.js';
import type { EventInfo, ExternInfo } from './program.js';

export function paramName(p: Node): string {
  const n = isAst(p, ':', 2) ? p.args[0]! : p;
  if (n.type !== 'token' || !/^[A-Za-z_$@][A-Za-z0-9_$@]*$/.test(n.val)) {
    throw semanticError(p.pos, `invalid parameter: ${show(p)}`);
  }
  return n.val;
}

/** Maps Serpent parameter annotations to ABI type names. */
export function paramType(p: Node): string {
  if (!isAst(p, ':', 2)) return 'int256';
  return typeName(p.args[1]!);
}

function typeName(t: Node): string {
  if (isAst(t, 'access', 1) && t.args[0]!.type === 'token') return `${typeName(t.args[0]!)}[]`;
  if (t.type !== 'token' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(t.val)) throw semanticError(t.pos, `invalid type: ${show(t)}`);
  switch (t.val) {
    case 'str':
      return 'bytes';
    case 'arr':
      return 'int256[]';
    case 'int':
      return 'int256';
    case 's':
    case 'a':
      throw semanticError(t.pos, "old type letter: use 'str' instead of 's' and 'arr' instead of 'a'");
    default:
      return t.val;
  }
}

export function eventInfo(sig: Node): EventInfo {
  const args = sig.type === 'ast' ? sig.args : [];
  const argNames: string[] = [];
  const argTypes: string[] = [];
  const indexed: boolean[] = [];
  const prefixTypes: string[] = [];
  for (const arg of args) {
    let isIndexed = false;
    let decl = arg;
    if (isAst(arg, ':', 2) && isToken(arg.args[1]!, 'indexed')) {
      isIndexed = true;
      decl = arg.args[0]!;
    }
    const name = paramName(decl);
    const type = paramType(decl);
    if (isIndexed && argKind(type) === 'array') throw semanticError(arg.pos, `cannot index an array: ${type}`);
    argNames.push(name);
    argTypes.push(type);
    indexed.push(isIndexed);
    // Indexed strings are logged both as data and as a hash topic.
    prefixTypes.push(type);
    if (isIndexed && argKind(type) === 'bytes') prefixTypes.push('bytes32');
  }
  if (indexed.filter(Boolean).length > 3) throw semanticError(sig.pos, 'an event can have at most 3 indexed arguments');
  const signature = signatureOf(sig.val, prefixTypes);
  return { name: sig.val, argNames, argTypes, indexed, signature, topic: topicOf(signature) };
}

const LETTER_TYPES: Readonly<Record<string, string>> = { i: 'int256', s: 'bytes', a: 'int256[]' };

/** `name`, `name:iis` (old letters) or `name:[types]:outtype`. */
export function externInfo(sig: Node): ExternInfo {
  let nameNode: Node;
  let typesNode: Node | null = null;
  let outNode: Node | null = null;
  if (isAst(sig, ':', 2) && isAst(sig.args[0]!, ':', 2)) {
    nameNode = sig.args[0].args[0]!;
    typesNode = sig.args[0].args[1]!;
    outNode = sig.args[1]!;
  } else if (isAst(sig, ':', 2)) {
    nameNode = sig.args[0]!;
    typesNode = sig.args[1]!;
  } else {
    nameNode = sig;
  }
  if (nameNode.type !== 'token' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(nameNode.val)) {
    throw semanticError(sig.pos, `invalid extern function signature: ${show(sig)}`);
  }
  let argTypes: string[] = [];
  if (typesNode !== null && typesNode.type === 'token') {
    argTypes = [...typesNode.val].map((ch) => {
      const t = own(LETTER_TYPES, ch);
      if (t === undefined) throw semanticError(typesNode.pos, `bad signature letters '${typesNode.val}' (use i, s, a)`);
      return t;
    });
  } else if (typesNode !== null) {
    if (!isAst(typesNode, 'array_lit')) throw semanticError(typesNode.pos, `invalid argument type list: ${show(typesNode)}`);
    argTypes = typesNode.args.map(typeName);
  }
  // Output: '' unknown, '_' none, old letters or an ABI type name.
  let outType = '';
  if (outNode !== null) {
    const letter = outNode.type === 'token' ? own(LETTER_TYPES, outNode.val) : undefined;
    outType = letter ?? typeName(outNode);
  }
  return { name: nameNode.val, argTypes, outType, selector: selectorOf(signatureOf(nameNode.val, argTypes)), ambiguous: false };
}

export function declareType(stmt: Ast, types: Map<string, string>, prefixTypes: Map<string, string>): void {
  const name = stmt.args[0]!.val;
  const rhs = stmt.args[1]!;
  if (rhs.type === 'token') {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(rhs.val)) throw semanticError(rhs.pos, 'expected a variable-name prefix');
    prefixTypes.set(rhs.val, name);
    return;
  }
  if (!isAst(rhs, 'array_lit')) throw semanticError(rhs.pos, "expected '[names...]' or a name prefix");
  for (const v of rhs.args) {
    if (v.type !== 'token') throw semanticError(v.pos, 'expected a variable name');
    types.set(v.val, name);
  }
}
