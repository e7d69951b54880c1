// @vitest-environment node
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImports, importsOf, readSources } from './import-layers.mjs';

// The rules of DESIGN "The service in layers", on the real tree, and on that tree with one violation planted in it:
// each planted case proves the check would fail, and names the file and the import that broke the rule.
const real = readSources(resolve(import.meta.dirname, '../src'));
const planted = (files: Record<string, string>) => checkImports(new Map([...real, ...Object.entries(files)]));

describe('src/', () => {
  it('keeps every rank, has no browser import of the service and no import cycle', () => {
    expect(checkImports(real)).toEqual([]);
  });

  it('is read whole: the service, the widget, the console, the loader and the protocol are all there', () => {
    const parts = new Set([...real.keys()].map((f) => f.split('/')[0]));
    for (const part of ['server', 'widget', 'console', 'loader', 'protocol', 'cards', 'client'])
      expect(parts).toContain(part);
    expect(real.size).toBeGreaterThan(400);
  });
});

describe('checkImports', () => {
  it('fails a domain module that imports the HTTP layer', () => {
    expect(
      planted({ 'server/catalog/planted.ts': "import { errorResponse } from '../http/error-response';\n" }),
    ).toEqual([
      "server/catalog/planted.ts: import '../http/error-response': rank 4 domain modules may not import rank 6 http (server/http/error-response.ts)",
    ]);
  });

  it('fails platform code that imports the conversations it serves, type-only imports included', () => {
    expect(
      planted({
        'server/platform/planted.ts': "import type { ChatStore } from '../conversations/chat-store';\n",
      }),
    ).toEqual([
      "server/platform/planted.ts: import '../conversations/chat-store': rank 1 platform may not import rank 3 conversations (server/conversations/chat-store.ts)",
    ]);
  });

  it('fails production code that reaches for a test kit', () => {
    expect(
      planted({ 'server/chat/planted.ts': "export const load = () => import('../testing/test-servers');\n" }),
    ).toEqual([
      "server/chat/planted.ts: import '../testing/test-servers': rank 5 chat may not import rank 8 testing (server/testing/test-servers.ts)",
    ]);
  });

  it('fails browser code that imports the service', () => {
    expect(
      planted({ 'widget/planted.ts': "import { parseConfig } from '../server/config/service-config';\n" }),
    ).toEqual([
      "widget/planted.ts: import '../server/config/service-config': browser code never imports src/server (put what both sides need in src/protocol)",
    ]);
    expect(planted({ 'console/planted.ts': "import '../server/start';\n" })).toHaveLength(1);
    expect(planted({ 'loader/planted.ts': "import '../widget/store';\n" })).toEqual([
      "loader/planted.ts: import '../widget/store': src/loader may not import src/widget",
    ]);
  });

  it('fails the protocol when it imports anything but itself', () => {
    expect(planted({ 'protocol/planted.ts': "import type { Store } from '../widget/store';\n" })).toEqual([
      "protocol/planted.ts: import '../widget/store': src/protocol may not import src/widget",
    ]);
  });

  it('fails an import cycle between files, naming the loop', () => {
    expect(
      planted({
        'widget/planted-a.ts': "import { b } from './planted-b';\nexport const a = b;\n",
        'widget/planted-b.ts': "import type { a } from './planted-a';\nexport const b = 1;\n",
      }),
    ).toEqual([
      'import cycle between files: widget/planted-a.ts → widget/planted-b.ts → widget/planted-a.ts',
    ]);
  });

  it('fails a cycle between two folders of the service, though each file keeps its rank', () => {
    const problems = planted({
      'server/catalog/planted.ts': "import '../knowledge/knowledge-index';\n",
      'server/knowledge/planted.ts': "import '../catalog/store/catalog-store';\n",
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^import cycle between folders of src\/server: catalog, knowledge \(/);
    expect(problems[0]).toContain('server/catalog/planted.ts imports server/knowledge/knowledge-index.ts');
  });

  it('lets a unit test use a kit within its rank, and sends one that boots the service to scenarios', () => {
    // test-backends opens the database (platform): fine beside conversations code.
    expect(
      planted({ 'server/conversations/planted.test.ts': "import '../testing/test-backends';\n" }),
    ).toEqual([]);
    // settings-test-kit starts the whole service: not beside settings code, but in scenarios.
    expect(
      planted({ 'server/settings/planted.test.ts': "import '../testing/settings-test-kit';\n" }),
    ).toEqual([
      "server/settings/planted.test.ts: import '../testing/settings-test-kit': rank 4 domain modules may not import a kit that reaches rank 7 (server/testing/settings-test-kit.ts); a test that needs it belongs in src/server/scenarios",
    ]);
    expect(
      planted({ 'server/scenarios/settings/planted.test.ts': "import '../../testing/settings-test-kit';\n" }),
    ).toEqual([]);
  });

  it('lets only the composition root use the npm package clients', () => {
    expect(planted({ 'server/tasks/planted.ts': "import '../../client/task-client';\n" })).toEqual([
      "server/tasks/planted.ts: import '../../client/task-client': only the composition root (rank 7) of src/server may import src/client",
    ]);
    expect(planted({ 'server/planted.ts': "import '../client/task-client';\n" })).toEqual([]);
  });

  it('fails a folder of the service that has no rank, and an import that names no file', () => {
    expect(planted({ 'server/misc/planted.ts': 'export const x = 1;\n' })).toEqual([
      'server/misc/planted.ts: folder src/server/misc has no rank (add it to SERVER_RANKS and docs/architecture.md)',
    ]);
    expect(planted({ 'server/core/planted.ts': "import './no-such-file';\n" })).toEqual([
      "server/core/planted.ts: import './no-such-file' names no file in src/",
    ]);
  });
});

describe('importsOf', () => {
  it('reads static, type-only, dynamic and re-exported imports, and not a string that only mentions one', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "const d = () => import('./d');",
      'const e = `import "./e.js"`;',
      "import 'preact';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a', '../b', './c', './d']);
  });
});
