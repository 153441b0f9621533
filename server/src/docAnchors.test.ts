import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Code comments, docs and the README point at headings of docs/*.md (`docs/api.md#errors`); a
// renamed heading must not leave them pointing nowhere. Anchors follow GitHub's heading slugs.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|css|html|ya?ml|conf|json)$|^(Dockerfile|run)$/;

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name) || entry.name === 'package-lock.json') return [];
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return textFiles(file);
    return TEXT_FILE.test(entry.name) ? [file] : [];
  });
}

/** GitHub's slug of a heading: its text as shown, lower-cased, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  const shown = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
  return shown
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a Markdown file; a repeated heading gets -1, -2… as on GitHub. Code blocks hold no headings. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = slugOf(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Citation {
  from: string;
  target: string;
  anchor: string;
}

/** `docs/<file>.md#<anchor>` anywhere, and in Markdown also links relative to the file (`api.md#errors`, `#errors`). */
function citationsIn(file: string): Citation[] {
  const text = readFileSync(file, 'utf8');
  const from = path.relative(root, file);
  const cited = [...text.matchAll(/docs\/([\w-]+\.md)#([\w-]+)/g)].map(([, name = '', anchor = '']) => ({
    from,
    target: path.join(root, 'docs', name),
    anchor,
  }));
  if (file.endsWith('.md')) {
    for (const [, link, anchor = ''] of text.matchAll(/\]\(([\w./-]*\.md)?#([^)\s]+)\)/g)) {
      cited.push({ from, target: link ? path.resolve(path.dirname(file), link) : file, anchor });
    }
  }
  return cited;
}

describe('cited doc anchors', () => {
  const files = textFiles(root);
  const citations = files.flatMap(citationsIn);

  it('finds the citations it checks', () => {
    expect(citations.length).toBeGreaterThan(50);
  });

  it('points every docs/*.md#anchor of the code, the docs and the README at a heading that exists', () => {
    const known = new Map<string, Set<string>>();
    const exists = ({ target, anchor }: Citation) => {
      if (!known.has(target)) known.set(target, files.includes(target) ? anchorsOf(target) : new Set());
      return known.get(target)?.has(anchor) ?? false;
    };
    const missing = citations.filter((citation) => !exists(citation));
    expect(missing.map(({ from, target, anchor }) => `${from}: ${path.relative(root, target)}#${anchor}`)).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect(slugOf('Running the queue (agent dashboard additions)')).toBe('running-the-queue-agent-dashboard-additions');
    expect(slugOf('Internal notes, mentions and the composer')).toBe('internal-notes-mentions-and-the-composer');
    expect(slugOf('`npm test` in CI')).toBe('npm-test-in-ci');
    expect(slugOf('Scale-out')).toBe('scale-out');
  });
});

describe('the docs stand alone', () => {
  it('cite no section of a document outside the repo', () => {
    const markdown = textFiles(root).filter((file) => file.endsWith('.md'));
    const outside = markdown.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/(SPEC|CONTRACT) §|§\s*\d|\.\.\/shared\//.test(line) ? [`${path.relative(root, file)}:${i + 1}`] : [])),
    );
    expect(outside).toEqual([]);
  });
});
