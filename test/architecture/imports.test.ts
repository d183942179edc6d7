/**
 * The import rules of docs/architecture.md, checked on the sources: a rule that only lives in a
 * document is broken by the first hurried change. Each rule is a function of the import graph of
 * src/ (relative imports, parsed with the TypeScript compiler), so a broken rule names the file
 * and the import that broke it.
 */
import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = join(ROOT, 'src');

interface Import {
  /** The importing file and the imported one, relative to src/ ("rpc/errors.ts"). */
  readonly from: string;
  readonly to: string;
  /** False when only types cross (erased at compile time) or the import is dynamic (loaded on use). */
  readonly runtime: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return (entry.name.endsWith('.ts') || entry.name.endsWith('.tsx')) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (specifier: string, runtime: boolean) => {
    if (!specifier.startsWith('.')) return; // packages are not ours to rule
    const resolved = resolve(dirname(file), specifier);
    // The explorer's browser code imports its .tsx modules by their .js names, as the rest import .ts ones.
    const target = existsSync(resolved.replace(/\.js$/, '.tsx')) ? resolved.replace(/\.js$/, '.tsx') : resolved.replace(/\.js$/, '.ts');
    found.push({ from: relative(SRC, file).split(sep).join('/'), to: relative(SRC, target).split(sep).join('/'), runtime });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, !typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier.text, !typeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) add(specifier.text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const IMPORTS: readonly Import[] = sourceFiles(SRC).flatMap(importsOf);
const describeImport = ({ from, to }: Import) => `src/${from} imports src/${to}`;
const inFolder = (file: string, folder: string) => file.startsWith(`${folder}/`);
const topLevel = (file: string) => !file.includes('/');

/** The runtime import cycles among src/'s modules, each as the list of its files (Tarjan's strongly connected components). */
function runtimeCycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const { from, to, runtime } of imports) if (runtime) edges.set(from, [...(edges.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

describe('import rules (docs/architecture.md)', () => {
  it('finds the imports it checks (the parser sees the sources)', () => {
    expect(IMPORTS.length).to.be.greaterThan(500);
    expect(IMPORTS.some(({ from, to }) => from === 'index.ts' && to === 'provider.ts')).to.equal(true);
  });

  it('the engine imports nothing outside itself', () => {
    const broken = IMPORTS.filter(({ from, to }) => inFolder(from, 'engine') && !inFolder(to, 'engine'));
    expect(broken.map(describeImport)).to.deep.equal([]);
  });

  it('outside the engine, engine modules are imported only through src/engine/index.ts', () => {
    const broken = IMPORTS.filter(({ from, to }) => !inFolder(from, 'engine') && inFolder(to, 'engine') && to !== 'engine/index.ts');
    expect(broken.map(describeImport)).to.deep.equal([]);
  });

  it('rpc/ imports no top-level file of src/', () => {
    const broken = IMPORTS.filter(({ from, to }) => inFolder(from, 'rpc') && topLevel(to));
    expect(broken.map(describeImport)).to.deep.equal([]);
  });

  it('fork/ imports nothing from rpc/', () => {
    const broken = IMPORTS.filter(({ from, to }) => inFolder(from, 'fork') && inFolder(to, 'rpc'));
    expect(broken.map(describeImport)).to.deep.equal([]);
  });

  // The explorer page runs in a browser and reaches the node only over JSON-RPC (docs/explorer.md):
  // an import of the node's modules would drag Node's APIs into the bundle, or engine state into the page.
  it('explorer/ui/ (browser code) imports nothing outside itself, and nothing imports it', () => {
    const outward = IMPORTS.filter(({ from, to }) => inFolder(from, 'explorer/ui') && !inFolder(to, 'explorer/ui'));
    const inward = IMPORTS.filter(({ from, to }) => !inFolder(from, 'explorer/ui') && inFolder(to, 'explorer/ui'));
    expect([...outward, ...inward].map(describeImport)).to.deep.equal([]);
    expect(IMPORTS.some(({ from }) => inFolder(from, 'explorer/ui'))).to.equal(true);
  });

  it('no runtime import cycles', () => {
    expect(runtimeCycles(IMPORTS)).to.deep.equal([]);
  });

  it('the cycle finder finds a cycle, and ignores one that only types close', () => {
    const edge = (from: string, to: string, runtime = true): Import => ({ from, to, runtime });
    expect(runtimeCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')])).to.deep.equal([['a.ts', 'b.ts', 'c.ts']]);
    expect(runtimeCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', false)])).to.deep.equal([]);
  });
});
