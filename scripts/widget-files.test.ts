// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importsOf, widgetFiles, widgetLanguages } from './widget-files.mjs';

describe('importsOf', () => {
  it('tells static imports from dynamic ones in minified output', () => {
    const code =
      'import{a as n}from"./chunks/version-1.js";import"./side.js";' +
      'const m=()=>import("./chunks/mount-2.js"),p=()=>import( "../up.js" );export{n}from"./re.js";';
    expect(importsOf(code)).toEqual({
      static: ['./chunks/version-1.js', './side.js', './re.js'],
      dynamic: ['./chunks/mount-2.js', '../up.js'],
    });
  });

  it('ignores bare and absolute specifiers (never in the widget build) and strings that only mention import', () => {
    expect(importsOf('import"preact";import("https://x.example/a.js");const s="import x";')).toEqual({
      static: [],
      dynamic: [],
    });
  });
});

describe('widgetFiles', () => {
  // A dist/ shaped like the build's: the script-tag entry and the npm entry share chunks; two lazy parts; German.
  const dist = mkdtempSync(join(tmpdir(), 'widget-files-'));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  mkdirSync(join(dist, 'chunks'));
  const files: Record<string, string> = {
    'widget.js': 'import"./chunks/mount.js";',
    'index.js': 'import{a}from"./chunks/version.js";const l=()=>import("./chunks/mount.js");',
    'chunks/version.js': 'export const a=1;',
    'chunks/mount.js':
      'import{a}from"./version.js";const c=()=>import("./chat-view-Ab1_.js"),s={de:()=>import("./de-Xy9-.js")};',
    'chunks/de-Xy9-.js': 'var e={lang:"de"};export{e as default};',
    'chunks/chat-view-Ab1_.js':
      'import{x}from"./mount.js";import{z}from"./pure.js";const p={t:()=>import("./text.js"),c:()=>import("./card.js")};',
    'chunks/pure.js': 'export const z=1;',
    'chunks/text.js': 'import{x}from"./mount.js";import{y}from"./link.js";',
    'chunks/card.js': 'import{y}from"./link.js";',
    'chunks/link.js': 'import{x}from"./mount.js";',
  };
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dist, name), code);
  const names = (paths: string[]) => paths.map((p) => relative(dist, p)).sort();

  it('counts until ready the static imports, until open the chat chunk too, and everything with the lazy parts', () => {
    const { script, npm } = widgetFiles(dist, ['de', 'ar']);
    expect(names(script.untilReady)).toEqual(['chunks/mount.js', 'chunks/version.js', 'widget.js']);
    expect(names(script.untilOpen)).toEqual([
      'chunks/chat-view-Ab1_.js',
      'chunks/mount.js',
      'chunks/pure.js',
      'chunks/version.js',
      'widget.js',
    ]);
    expect(names(script.everything)).toEqual([
      'chunks/card.js',
      'chunks/chat-view-Ab1_.js',
      'chunks/link.js',
      'chunks/mount.js',
      'chunks/pure.js',
      'chunks/text.js',
      'chunks/version.js',
      'widget.js',
    ]);
    // load() imports the widget's chunk: the npm entry's until-open has it and the chat chunk, not the lazy parts.
    expect(names(npm.untilReady)).toEqual(['chunks/mount.js', 'chunks/version.js', 'index.js']);
    expect(names(npm.untilOpen)).toEqual([
      'chunks/chat-view-Ab1_.js',
      'chunks/mount.js',
      'chunks/pure.js',
      'chunks/version.js',
      'index.js',
    ]);
    expect(names(npm.everything)).toEqual([
      'chunks/card.js',
      'chunks/chat-view-Ab1_.js',
      'chunks/link.js',
      'chunks/mount.js',
      'chunks/pure.js',
      'chunks/text.js',
      'chunks/version.js',
      'index.js',
    ]);
  });

  it("keeps each language's chunk apart, out of everything (a shopper fetches one language, at boot)", () => {
    const { script, npm } = widgetFiles(dist, ['de', 'ar']);
    expect(script.languages).toEqual({ de: join(dist, 'chunks/de-Xy9-.js') });
    expect(npm.languages).toEqual(script.languages);
    for (const files of [script, npm]) {
      expect(names(files.everything)).not.toContain('chunks/de-Xy9-.js');
      expect(names(files.untilOpen)).not.toContain('chunks/de-Xy9-.js');
    }
    // Without the tag in the list of languages, the chunk is one more lazy file.
    expect(names(widgetFiles(dist, []).script.everything)).toContain('chunks/de-Xy9-.js');
  });

  it('lists the languages of src/widget/locales/', () => {
    expect(widgetLanguages().sort()).toEqual(['ar', 'de', 'he']);
  });
});
