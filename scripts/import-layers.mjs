// The import rules of src/ (DESIGN part three, "The service in layers"; docs/architecture.md draws them), checked on
// every import of every file: `scripts/import-layers.test.ts` runs it in `npm test`, and `node
// scripts/import-layers.mjs` prints what it finds. Imports are read with TypeScript's own scanner (static, type-only,
// dynamic and re-exports alike), so a string that only mentions `import` is never taken for one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The ranks of `src/server`, lowest first: a file imports only from its own rank or lower. Each folder directly under
 * `src/server` has one; the composition root is the files at its top.
 */
export const SERVER_RANKS = [
  { rank: 0, name: 'config', folders: ['config'] },
  { rank: 1, name: 'platform', folders: ['platform'] },
  { rank: 2, name: 'core', folders: ['core'] },
  { rank: 3, name: 'conversations', folders: ['conversations'] },
  {
    rank: 4,
    name: 'domain modules',
    folders: [
      'actions',
      'catalog',
      'email',
      'engine',
      'guards',
      'handoff',
      'hooks',
      'knowledge',
      'push',
      'settings',
      'tasks',
      'webhooks',
      'insights',
    ],
  },
  { rank: 5, name: 'chat', folders: ['chat'] },
  { rank: 6, name: 'http', folders: ['http'] },
  { rank: 7, name: 'composition root', folders: [''] },
  // Test code: kits and doubles, then whole-service tests. Production code never reaches them (their ranks are above
  // the root's); a unit test beside the code may use a kit only if the kit itself stays within the test's rank.
  { rank: 8, name: 'testing', folders: ['testing'] },
  { rank: 9, name: 'scenarios', folders: ['scenarios'] },
];

/**
 * The parts of `src/` outside the service, and what each may import. `protocol` and `cards` sit below everything;
 * browser code (loader, widget, console) and the clients never import `src/server`.
 */
export const SIDES = {
  protocol: ['protocol'],
  cards: ['protocol', 'cards'],
  schemas: ['protocol', 'schemas'],
  client: ['protocol', 'cards', 'schemas', 'client'],
  loader: ['protocol', 'loader'],
  widget: ['protocol', 'cards', 'widget'],
  console: ['protocol', 'cards', 'console'],
  // The npm entry (src/index.ts) and its tests.
  '': ['protocol', 'cards', 'schemas', 'client', 'widget', ''],
  // `service-widget/react` and `service-widget/vue`: built on the npm entry's `load()`. `widget` only for their tests,
  // which mount the real widget against widget/test-support.ts's local service.
  frameworks: ['protocol', '', 'widget', 'frameworks'],
  // The service's own ranks are checked below; these are the parts of src/ it may use besides. Only the composition
  // root may use the npm package's clients: `service-widget task …` speaks to a service with the task client.
  server: ['protocol', 'cards', 'schemas', 'server', 'client'],
};

/** The lowest rank of src/server that may import each part of src/ outside the service (absent: every rank). */
const SERVER_USES_FROM_RANK = { client: 7 };

const isTest = (file) => /\.test\.tsx?$/.test(file);
const SOURCE = /\.(ts|tsx|mts)$/;

/** `src/`-relative path → which side it is on, and for `src/server` its rank. */
function placeOf(file) {
  const parts = file.split('/');
  const side = parts.length === 1 ? '' : parts[0];
  if (side !== 'server') return { side };
  const folder = parts.length === 2 ? '' : parts[1];
  const rank = SERVER_RANKS.find((r) => r.folders.includes(folder));
  return { side, folder, rank };
}

const CANDIDATES = ['', '.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

/** A stylesheet, JSON or other file the bundler brings in: not code, so no rank. */
const ASSET = /\.(css|json|svg|png|txt|md)$/;

/** The `src/`-relative file a relative specifier names, or undefined when it names none (or lies outside src/). */
function resolveImport(files, from, specifier) {
  // Vite's queries (`?inline`, a test's `?case=…`) name the same file.
  const path = specifier.replace(/\?.*$/, '');
  if (ASSET.test(path)) return { outside: true };
  const base = join(dirname(from), path.replace(/\.js$/, ''));
  if (base.startsWith('..')) return { outside: true };
  for (const suffix of CANDIDATES) if (files.has(base + suffix)) return { file: base + suffix };
  return undefined;
}

/** Relative import specifiers of one source text, in order. */
export function importsOf(text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/**
 * Every broken rule in a set of files (`src/`-relative path → text), each as one line naming the file, the import
 * and the rule. Empty when the tree keeps every rule.
 */
export function checkImports(files) {
  const problems = [];
  /** file → the src/ files it imports, with the specifier as written. */
  const graph = new Map();
  for (const [file, text] of files) {
    if (!SOURCE.test(file)) continue;
    const out = [];
    for (const specifier of importsOf(text)) {
      const target = resolveImport(files, file, specifier);
      if (target?.outside) continue;
      if (!target) {
        problems.push(`${file}: import '${specifier}' names no file in src/`);
        continue;
      }
      out.push({ specifier, file: target.file });
    }
    graph.set(file, out);
  }

  // What a kit under src/server/testing reaches in production code: the highest rank among the files it imports,
  // through other kits too. A unit test beside rank-4 code may use a kit that stays at rank 4 or lower.
  const kitRank = new Map();
  const reach = (file, seen = new Set()) => {
    if (kitRank.has(file)) return kitRank.get(file);
    if (seen.has(file)) return 0;
    seen.add(file);
    let highest = 0;
    for (const { file: target } of graph.get(file) ?? []) {
      const place = placeOf(target);
      if (place.side !== 'server') continue;
      const rank = place.rank?.rank ?? 0;
      highest = Math.max(highest, rank === 8 ? reach(target, seen) : rank);
    }
    kitRank.set(file, highest);
    return highest;
  };

  for (const [file, imports] of graph) {
    const from = placeOf(file);
    if (from.side === 'server' && !from.rank) {
      problems.push(
        `${file}: folder src/server/${from.folder} has no rank (add it to SERVER_RANKS and docs/architecture.md)`,
      );
      continue;
    }
    const allowed = SIDES[from.side];
    if (!allowed) {
      problems.push(`${file}: src/${from.side} is not a known part of src/ (add it to SIDES)`);
      continue;
    }
    for (const { specifier, file: target } of imports) {
      const to = placeOf(target);
      const at = `${file}: import '${specifier}'`;
      // Whole-service tests drive the widget's and the clients' code against the real service.
      const isScenario = from.rank?.rank === 9;
      if (!allowed.includes(to.side) && !isScenario) {
        const browser = ['widget', 'console', 'loader'].includes(from.side);
        problems.push(
          to.side === 'server' && browser
            ? `${at}: browser code never imports src/server (put what both sides need in src/protocol)`
            : `${at}: src/${from.side || '(top)'} may not import src/${to.side || '(top)'}`,
        );
        continue;
      }
      const fromRank = SERVER_USES_FROM_RANK[to.side];
      if (from.side === 'server' && fromRank !== undefined && from.rank.rank < fromRank) {
        problems.push(
          `${at}: only the composition root (rank ${fromRank}) of src/server may import src/${to.side}`,
        );
        continue;
      }
      if (from.side !== 'server' || to.side !== 'server') continue;
      const own = from.rank.rank;
      if (!to.rank) continue; // reported for the target's own file
      // A unit test may use a kit whose reach stays within the test's rank.
      const isKitForTest = isTest(file) && own < 8 && to.rank.rank === 8;
      const theirs = isKitForTest ? reach(target) : to.rank.rank;
      if (theirs > own) {
        const name = isKitForTest ? `a kit that reaches rank ${theirs}` : `rank ${theirs} ${to.rank.name}`;
        problems.push(
          `${at}: rank ${own} ${from.rank.name} may not import ${name} (${target})${isTest(file) ? '; a test that needs it belongs in src/server/scenarios' : ''}`,
        );
      }
    }
  }

  for (const cycle of fileCycles(graph)) problems.push(`import cycle between files: ${cycle.join(' → ')}`);
  for (const cycle of folderCycles(graph))
    problems.push(`import cycle between folders of src/server: ${cycle}`);
  return problems;
}

/** Strongly connected components of a graph (Tarjan), those with more than one node. */
function components(nodes, edgesOf) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (node) => {
    const me = { index, low: index, onStack: true };
    index++;
    info.set(node, me);
    stack.push(node);
    for (const next of edgesOf(node)) {
      const seen = info.get(next);
      if (!seen) {
        visit(next);
        me.low = Math.min(me.low, info.get(next).low);
      } else if (seen.onStack) me.low = Math.min(me.low, seen.index);
    }
    if (me.low === me.index) {
      const group = [];
      let n;
      do {
        n = stack.pop();
        info.get(n).onStack = false;
        group.push(n);
      } while (n !== node);
      if (group.length > 1) found.push(group);
    }
  };
  for (const node of nodes) if (!info.has(node)) visit(node);
  return found;
}

/** One loop through each group of files that import each other, as the path round it. */
function fileCycles(graph) {
  const edgesOf = (f) => (graph.get(f) ?? []).map((i) => i.file);
  return components([...graph.keys()].sort(), edgesOf).map((group) => {
    const members = new Set(group);
    const start = group.sort()[0];
    // Shortest way back to the start inside the group (breadth first), so the message names a real loop.
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length) {
      const at = queue.shift();
      for (const next of edgesOf(at)) {
        if (next === start) {
          const path = [start];
          for (let n = at; n !== start; n = previous.get(n)) path.splice(1, 0, n);
          return [...path, start];
        }
        if (members.has(next) && !previous.has(next)) {
          previous.set(next, at);
          queue.push(next);
        }
      }
    }
    return group;
  });
}

/**
 * Loops between the folders of src/server, over production files: a test's import is not the module's. Only imports
 * that keep the ranks count (one that breaks a rank is reported as that), so what is left is a loop within a rank:
 * two domain modules that use each other.
 */
function folderCycles(graph) {
  const folderOf = (f) => {
    const p = placeOf(f);
    return p.side === 'server' && (p.rank?.rank ?? 0) < 8 ? p.folder || '(root)' : undefined;
  };
  const edges = new Map();
  const example = new Map();
  for (const [file, imports] of graph) {
    const a = folderOf(file);
    if (a === undefined || isTest(file)) continue;
    for (const { file: target } of imports) {
      const b = folderOf(target);
      if (b === undefined || a === b) continue;
      if ((placeOf(target).rank?.rank ?? 0) > (placeOf(file).rank?.rank ?? 0)) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a).add(b);
      if (!example.has(`${a}>${b}`)) example.set(`${a}>${b}`, `${file} imports ${target}`);
    }
  }
  return components([...edges.keys()].sort(), (f) => [...(edges.get(f) ?? [])]).map((group) => {
    const members = new Set(group);
    const lines = [];
    for (const a of group.sort())
      for (const b of edges.get(a) ?? []) if (members.has(b)) lines.push(example.get(`${a}>${b}`));
    return `${group.join(', ')} (${lines.join('; ')})`;
  });
}

/** Every source file under a `src/` folder, as `src/`-relative path → text. */
export function readSources(srcDir) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(entry))
        files.set(relative(srcDir, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(srcDir);
  return files;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
  const files = readSources(src);
  const problems = checkImports(files);
  for (const p of problems) console.log(p);
  console.log(
    `import layers: ${files.size} files, ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
  );
  process.exitCode = problems.length ? 1 : 0;
}
