// The docs a maintainer reads (README.md, docs/*.md) name only what the code has: every
// `npm run X` is a script of package.json; every `--flag` after `npm run X --` is an option that
// script parses (its parseOptions call, with scripts/lib/'s SETTING_OPTIONS and RECIPE_OPTIONS
// spread in) and every bench mode one the bench takes; every path under src/, scripts/, test/,
// public/ or docs/ exists (a `*` or a `<placeholder>` matches any name within one folder); every
// relative link leads to a file and a heading that exist; and every URL option and attribute the
// docs write is one src/ui/options.ts reads; every tarball and folder name carries package.json's
// version. Each doc says on its first screen whom it is for, and the docs keep to their sizes
// (docs/ 90 KB, the README 15 KB). CHANGELOG.md is history, and is left as it was.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMES } from '../src/ui/options';
import { optionsOf } from './scripts/script-options';

const ROOT = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))];
const PKG = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };
const SCRIPTS = PKG.scripts;

/** What a doc says in code: its fenced blocks, and its inline spans (which may run over a line break). */
function codeOf(text: string): string[] {
  const fenced = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const inline = [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' '));
  return [...fenced, ...inline].map((c) => c.replaceAll('\\|', '|'));
}

/** Each `npm run X [-- rest]` in a piece of code: the script's name and what follows `--` on that line. */
function npmRuns(code: string): { script: string; args: string }[] {
  return [...code.matchAll(/\bnpm run ([\w:-]+)( --(?=\s|$)([^\n]*))?/g)].map((m) => ({
    script: m[1]!,
    args: m[3] ?? '',
  }));
}

/** The bench's modes, as scripts/bench/index.ts lists them, and `all`. */
const BENCH_MODES = [
  ...[.../const MODES = \[([^\]]*)\]/.exec(read('scripts/bench/index.ts'))![1]!.matchAll(/'([\w-]+)'/g)].map(
    (m) => m[1]!,
  ),
  'all',
];

/** The script file behind `npm run X`, for the scripts tsx runs (others' flags are their tools', not checked). */
const scriptFile = (script: string): string | null =>
  /^tsx (scripts\/\S+\.ts)$/.exec(SCRIPTS[script] ?? '')?.[1] ?? null;

function mistakesInCommands(doc: string): string[] {
  const text = read(doc);
  const found: string[] = [];
  for (const m of text.matchAll(/\bnpm (start|test)\b/g))
    if (!SCRIPTS[m[1]!]) found.push(`npm ${m[1]}: no such script`);
  for (const code of codeOf(text)) {
    for (const { script, args } of npmRuns(code)) {
      if (!(script in SCRIPTS)) {
        found.push(`npm run ${script}: no such script in package.json`);
        continue;
      }
      const file = scriptFile(script);
      if (file === null) continue;
      const options = optionsOf(file);
      for (const flag of args.matchAll(/(?<![\w-])--([a-z][\w-]*)/g))
        if (!options.has(flag[1]!)) found.push(`npm run ${script} -- --${flag[1]}: ${file} takes no such option`);
      if (script === 'bench') {
        const mode = /^\s*(<?[a-z][\w-]*)/.exec(args)?.[1];
        // Without a mode the bench prints its usage and measures nothing.
        if (!mode) found.push('npm run bench: names no mode');
        else if (!mode.startsWith('<') && !BENCH_MODES.includes(mode))
          found.push(`npm run bench -- ${mode}: no such mode`);
      }
    }
  }
  // In prose, outside code, a script is still a script.
  for (const m of text.matchAll(/\bnpm run ([\w:-]+)/g))
    if (!(m[1]! in SCRIPTS)) found.push(`npm run ${m[1]}: no such script in package.json`);
  return [...new Set(found)];
}

/** Does `pattern` (a path with `*` or `<placeholder>` segments, each within one folder) name something that exists? */
function exists(pattern: string): boolean {
  const path = pattern.replace(/<[^>]+>/g, '*');
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const parts = path.replace(/\/$/, '').split('/');
  let here = [ROOT];
  for (const part of parts) {
    const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
    here = here.flatMap((dir) =>
      existsSync(dir) && statSync(dir).isDirectory()
        ? readdirSync(dir)
            .filter((f) => re.test(f))
            .map((f) => join(dir, f))
        : [],
    );
  }
  return here.length > 0;
}

/** A site's own files in embedding.md's recipes (esbuild's and Rollup's entry), not this repository's. */
const SITE_FILES = new Set(['src/main.jsx', 'src/main.js']);

function missingPaths(doc: string): string[] {
  const text = read(doc);
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./@-])((?:src|scripts|test|public|docs)\/[\w./*<>-]*)/g)) {
    const path = m[1]!.replace(/[.,:;]+$/, '');
    if (!exists(path) && !(doc === 'docs/embedding.md' && SITE_FILES.has(path))) found.add(path);
  }
  return [...found];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

const anchorsOf = (path: string): Set<string> =>
  new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

function brokenLinks(doc: string): string[] {
  const text = read(doc);
  const found: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1]!;
    if (/^[a-z]+:/.test(link)) continue;
    const [file, anchor] = link.split('#') as [string, string | undefined];
    const target = file === '' ? doc : relative(ROOT, join(ROOT, dirname(doc), file));
    if (!existsSync(join(ROOT, target))) found.push(`${link}: no file ${target}`);
    else if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor))
      found.push(`${link}: no heading #${anchor} in ${target}`);
  }
  return found;
}

const URL_KEYS = new Set(Object.values(NAMES).flatMap((n) => (n.url ? [n.url] : [])));
const ATTRIBUTE_NAMES = new Set(Object.values(NAMES).flatMap((n) => (n.attribute ? [n.attribute] : [])));
/** Query keys the docs write that are not the page's options: the bench's switch of the worker script's URL. */
const NOT_PAGE_OPTIONS = new Set(['kernels']);

function unknownSettings(doc: string): string[] {
  const text = read(doc);
  const found = new Set<string>();
  // URL options: `?key=` and `&key=` wherever the docs write a query.
  for (const m of text.matchAll(/[?&]([a-z][\w-]*)=/g))
    if (!URL_KEYS.has(m[1]!) && !NOT_PAGE_OPTIONS.has(m[1]!)) found.add(`?${m[1]}=: no such URL option`);
  // The props-and-attributes table: its attribute column.
  for (const m of text.matchAll(/^\| `\w+` \| `([\w-]+)` \|/gm))
    if (!ATTRIBUTE_NAMES.has(m[1]!)) found.add(`attribute ${m[1]}: the element reads no such attribute`);
  // An attribute written on the element's tag.
  for (const tag of text.matchAll(/<plate-multi-turn-rl\b([^>]*)>/g))
    for (const a of tag[1]!.matchAll(/\s([a-z][\w-]*)(?==|\s|$)/g))
      if (!ATTRIBUTE_NAMES.has(a[1]!)) found.add(`<plate-multi-turn-rl ${a[1]}>: no such attribute`);
  return [...found];
}

/** The versions a doc writes in the tarball's name or the folder's, other than package.json's. */
const otherVersions = (doc: string): string[] => [
  ...new Set(
    [...read(doc).matchAll(/(?:multi-turn-rl-plate-|plate-)(\d+\.\d+\.\d+)/g)]
      .map((m) => m[0])
      .filter((name) => !name.endsWith(`-${PKG.version}`)),
  ),
];

describe.each(DOCS)('%s', (doc) => {
  it('says on its first screen whom it is for', () => {
    const firstScreen = read(doc).split('\n').slice(0, 20).join('\n');
    expect(firstScreen).toMatch(/\*\*For [^*]+\*\*|This file is for /);
  });

  it('names the tarball and the folder with package.json’s version', () => {
    expect(otherVersions(doc)).toEqual([]);
  });

  it('names only npm scripts package.json has, and only the options and modes those scripts take', () => {
    expect(mistakesInCommands(doc)).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    expect(missingPaths(doc)).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    expect(brokenLinks(doc)).toEqual([]);
  });

  it('says each heading once', () => {
    const headings = [...read(doc).matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!);
    expect(headings.filter((h, i) => headings.indexOf(h) !== i)).toEqual([]);
  });

  it('writes only URL options and attributes the plate reads', () => {
    expect(unknownSettings(doc)).toEqual([]);
  });
});

/** The code's pointers into the docs — `docs/embedding.md, “Hosting the files yourself”` — with no such heading. */
function codePointersAstray(): string[] {
  const files = ['src', 'scripts', 'test']
    .flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`))
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes('node_modules'))
    .concat('.dependency-cruiser.mjs');
  const astray: string[] = [];
  for (const file of files)
    for (const m of read(file).matchAll(/(docs\/[\w-]+\.md)(?:,\s*|\s*\()["“]([^"”]+)["”]/g)) {
      const [, doc, heading] = m as unknown as [string, string, string];
      const headings = existsSync(join(ROOT, doc)) ? [...read(doc).matchAll(/^#{1,6} (.+)$/gm)].map((h) => h[1]!) : [];
      if (!headings.some((h) => h.startsWith(heading.replace(/[?.]$/, ''))))
        astray.push(`${file}: ${doc}, “${heading}”`);
    }
  return astray;
}

describe('the code’s pointers into the docs', () => {
  it('name headings the docs have', () => {
    expect(codePointersAstray()).toEqual([]);
  });
});

describe('the docs’ sizes', () => {
  const bytes = (path: string) => statSync(join(ROOT, path)).size;
  it('keep docs/ within 90 KB and the README within 15 KB', () => {
    const docs = DOCS.filter((d) => d.startsWith('docs/'));
    expect(docs.reduce((sum, d) => sum + bytes(d), 0)).toBeLessThanOrEqual(90_000);
    expect(bytes('README.md')).toBeLessThanOrEqual(15_000);
  });
});

describe('the checks themselves', () => {
  it('catch a made-up script, option, mode, path, link and setting', () => {
    const code = codeOf(
      '`npm run nope` and `npm run workshop -- --seed 1 --nope` and `npm run bench -- nope --pairs 2`',
    );
    expect(code.flatMap(npmRuns)).toEqual([
      { script: 'nope', args: '' },
      { script: 'workshop', args: ' --seed 1 --nope' },
      { script: 'bench', args: ' nope --pairs 2' },
    ]);
    expect(optionsOf('scripts/workshop.ts')).toContain('tool-latency-ms'); // spread from the settings table
    expect(optionsOf('scripts/workshop.ts')).not.toContain('nope');
    expect(optionsOf('scripts/train-agent.ts')).toContain('sft-lr'); // spread from the recipe's overrides
    expect(optionsOf('scripts/longer-episode.ts')).toEqual(new Set(['calls', 'seeds', 'steps', 'json', 'scale']));
    expect(BENCH_MODES).toContain('phone');
    expect(
      exists('src/ui/options.ts') && exists('test/model/fused*.test.ts') && exists('test/sites/apps/<kind>/'),
    ).toBe(true);
    expect(exists('src/ui/nope.ts') || exists('test/nope*.ts')).toBe(false);
    expect(slug('What `npm run test:sites` checks')).toBe('what-npm-run-testsites-checks');
    expect(URL_KEYS).toContain('tool-latency-ms');
    expect(URL_KEYS).not.toContain('asset-base'); // a URL names no files
    expect(ATTRIBUTE_NAMES).toContain('asset-base');
  });
});
