/**
 * Every relative link and #anchor in the README and docs/ must resolve: the README was split
 * into docs/ files, and a moved section silently breaks the links that pointed into it.
 * Anchors are GitHub's: a heading's text, lower-cased, without punctuation, spaces as hyphens.
 */
import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The markdown files whose links are checked, relative to `root`. */
function documents(root: string): string[] {
  const top = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/results/HISTORY.md'].filter((f) => existsSync(join(root, f)));
  const docsDir = join(root, 'docs');
  const docs = existsSync(docsDir)
    ? readdirSync(docsDir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`)
    : [];
  return [...top, ...docs.sort()];
}

/** The text outside fenced code blocks, with inline code spans blanked (links in code are examples). */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      lines.push('');
      continue;
    }
    lines.push(fence === undefined ? line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)) : '');
  }
  return lines;
}

/** GitHub's anchor for a heading: its rendered text, lower-cased, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link renders as its text
    .replace(/<[^>]+>/g, '') // inline HTML tags render as nothing
    .trim()
    .toLowerCase();
  // github-slugger keeps letters, marks, digits, connector punctuation (_), spaces and hyphens.
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a markdown file defines: its headings (duplicates get -1, -2, ...) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** Inline links and images `[text](target)` and reference definitions `[label]: target`. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  prose(markdown).forEach((text, index) => {
    for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: index + 1, target: match[1]! });
    const definition = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
    if (definition) links.push({ line: index + 1, target: definition[1]! });
  });
  return links;
}

/** The broken relative links and anchors of `files` (paths relative to `root`), one message each. */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorCache.get(file);
    if (!found) anchorCache.set(file, (found = anchorsOf(readFileSync(file, 'utf8'))));
    return found;
  };
  const problems: string[] = [];
  for (const file of files) {
    const path = join(root, file);
    for (const { line, target } of linksOf(readFileSync(path, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, https:, mailto:, ...
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart === '' ? path : resolve(dirname(path), pathPart);
      const where = `${file}:${line}: ${target}`;
      if (relative(root, resolved).startsWith('..')) {
        problems.push(`${where}: points outside the repository`);
        continue;
      }
      if (!existsSync(resolved)) {
        problems.push(`${where}: ${relative(root, resolved)} does not exist`);
        continue;
      }
      if (anchor === undefined || anchor === '' || !resolved.endsWith('.md') || !statSync(resolved).isFile()) continue;
      if (!anchors(resolved).has(anchor)) problems.push(`${where}: no heading with anchor #${anchor} in ${relative(root, resolved)}`);
    }
  }
  return problems;
}

describe('documentation links', () => {
  it('README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md have no broken relative link or anchor', () => {
    const files = documents(ROOT);
    expect(files).to.include.members(['README.md', 'docs/methods.md']);
    expect(brokenLinks(ROOT, files)).to.deep.equal([]);
  });

  it('derives anchors as GitHub does', () => {
    expect(githubSlug("Transaction pool (go-ethereum's `txpool_*`, no `eth_` twin)")).to.equal('transaction-pool-go-ethereums-txpool_-no-eth_-twin');
    expect(githubSlug('Proof of work (`--mining pow`)')).to.equal('proof-of-work---mining-pow');
    expect(githubSlug('Execution, transactions, signing, fees')).to.equal('execution-transactions-signing-fees');
    expect(githubSlug('Quick start: Mocha (`chain-sim/mocha`)')).to.equal('quick-start-mocha-chain-simmocha');
    expect(githubSlug('See [the code](src/x.ts) here')).to.equal('see-the-code-here');
    expect([...anchorsOf('# A\n## Notes\n```\n# not a heading\n```\n## Notes\n<a name="custom"></a>\n')]).to.deep.equal(['a', 'notes', 'notes-1', 'custom']);
  });

  it('reports a missing file, a missing anchor and a link outside the repository, and ignores code and URLs', () => {
    const root = mkdtempSync(join(tmpdir(), 'chain-sim-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'docs', 'a.md'), '# A\n\n## Second part\n');
      writeFileSync(
        join(root, 'README.md'),
        [
          '# Top',
          '[ok](docs/a.md) [ok anchor](docs/a.md#second-part) [self](#top) [url](https://example.com/x.md#nope)',
          '[missing file](docs/b.md)',
          '[missing anchor](docs/a.md#third-part)',
          '[missing here](#bottom)',
          '[outside](../elsewhere.md)',
          '`[in code](docs/none.md)`',
          '```',
          '[in a block](docs/none.md)',
          '```',
          '[ref]: docs/c.md',
        ].join('\n'),
      );
      expect(brokenLinks(root, documents(root))).to.deep.equal([
        'README.md:3: docs/b.md: docs/b.md does not exist',
        'README.md:4: docs/a.md#third-part: no heading with anchor #third-part in docs/a.md',
        'README.md:5: #bottom: no heading with anchor #bottom in README.md',
        'README.md:6: ../elsewhere.md: points outside the repository',
        'README.md:11: docs/c.md: docs/c.md does not exist',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
