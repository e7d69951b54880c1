// @vitest-environment node
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is the user's reference and docs/ its details: every relative link in them must reach a file, and a
// `#anchor` a heading of it (GitHub's slugs), so a renamed section or a moved file fails here, not for a reader.

const root = resolve(import.meta.dirname, '..');
const files = [
  'README.md',
  'demo/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].filter((f) => existsSync(join(root, f)));

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');
/** GitHub's heading ids: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const id = heading
      .replace(/`/g, '')
      .trim()
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    ids.add(n ? `${id}-${n}` : id);
  }
  return ids;
}

/** The relative links of a markdown file that lead nowhere. */
function brokenLinks(file: string): string[] {
  const path = join(root, file);
  const broken: string[] = [];
  for (const [, link] of withoutCode(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(link)) continue;
    const [target, anchor] = link.split('#');
    const to = target ? resolve(dirname(path), target) : path;
    if (!existsSync(to)) broken.push(`${link}: no such file`);
    else if (anchor !== undefined && statSync(to).isFile() && to.endsWith('.md')) {
      if (!headingIds(readFileSync(to, 'utf8')).has(anchor)) broken.push(`${link}: no heading #${anchor}`);
    }
  }
  return broken;
}

describe('links in the README and docs/', () => {
  it('computes heading ids as GitHub does (code, punctuation, repeats)', () => {
    expect([
      ...headingIds('# Shutdown (SIGTERM)\n## `/readyz` and co.\n## Notes\n## Notes\n```\n# not one\n```'),
    ]).toEqual(['shutdown-sigterm', 'readyz-and-co', 'notes', 'notes-1']);
  });

  it.each(files)('%s: every relative link reaches a file and its heading', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
