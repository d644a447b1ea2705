import { describe, expect, it } from 'vitest';
import { propsFromAttributes } from '../../src/ui/element';
import { checkOptions, parseUrlOptions } from '../../src/ui/options';

const PAGE = 'https://plates.example/vol-xxvi/3/index.html?steps=2';

describe('parseUrlOptions', () => {
  it('reads every option of a well-formed query', () => {
    const { options, notes } = parseUrlOptions(
      '?start=pretrained&faulty=1&seed=7&steps=3&backend=wasm&calibrate=off&autorun=1&embed=1&xref=/volume/{ref}/',
      PAGE,
    );
    expect(options).toEqual({
      start: 'pretrained',
      faulty: true,
      seed: 7,
      steps: 3,
      backend: 'wasm',
      calibrate: 'off',
      autorun: true,
      embed: true,
      xrefPattern: '/volume/{ref}/',
    });
    expect(notes).toEqual([]);
  });

  it('reads which agent plays, and refuses in words an agent that cannot play the episode asked for', () => {
    expect(parseUrlOptions('?episode=one-call&agent=three-calls', PAGE)).toEqual({
      options: { episode: 'one-call', agent: 'three-calls' },
      notes: [],
    });
    const refused =
      'the one-call agent cannot play two-call sums: it was fine-tuned on one-call sums only, and its context of 32 characters is shorter than the two-calls world’s longest episode, 43';
    expect(parseUrlOptions('?episode=two-calls&agent=one-call', PAGE)).toEqual({
      options: { episode: 'two-calls' },
      notes: [`Ignored agent=one-call: ${refused}.`],
    });
    expect(checkOptions({ episode: 'two-calls', agent: 'one-call' }, 'prop', PAGE).notes).toEqual([
      `Ignored agent={"one-call"}: ${refused}.`,
    ]);
    // The two-call agent no longer ships: the three-call agent plays two calls.
    expect(parseUrlOptions('?agent=two-calls', PAGE).notes).toEqual([
      'Ignored agent=two-calls: expected one of own, one-call, three-calls.',
    ]);
  });

  it('ignores bad values with a note naming the key, the value and what was expected, in the address’s order', () => {
    const { options, notes } = parseUrlOptions(
      '?faulty=maybe&seed=-1&steps=400&backend=gpu&calibrate=fast&xref=javascript:alert({ref})',
      PAGE,
    );
    expect(options).toEqual({});
    expect(notes).toEqual([
      'Ignored faulty=maybe: expected 0 or 1.',
      'Ignored seed=-1: expected a whole number from 0 to 2147483647.',
      'Ignored steps=400: expected a whole number from 1 to 40.',
      'Ignored backend=gpu: expected one of webgpu, webgl, wasm, cpu.',
      'Ignored calibrate=fast: expected one of auto, all, off.',
      'Ignored xref=javascript:alert({ref}): expected an http(s) or relative URL containing {ref}.',
    ]);
  });

  it('takes the world and the tool’s latency as written, and names a world or a latency not offered', () => {
    expect(parseUrlOptions('?episode=two-calls&tool-latency-ms=50', PAGE)).toEqual({
      options: { episode: 'two-calls', toolLatencyMs: 50 },
      notes: [],
    });
    expect(parseUrlOptions('?episode=three-calls', PAGE).options).toEqual({ episode: 'three-calls' });
    expect(parseUrlOptions('?episode=three&tool-latency-ms=5', PAGE)).toEqual({
      options: {},
      notes: [
        'Ignored episode=three: expected one of one-call, two-calls, three-calls.',
        'Ignored tool-latency-ms=5: expected one of 0, 50, 200.',
      ],
    });
  });

  it('leaves unknown keys to the host page, and takes no files or scripts from an address', () => {
    expect(
      parseUrlOptions('?utm_source=x&seed=2&asset-base=https://evil.example/&worker-url=/w.js&assetBase=/x/', PAGE),
    ).toEqual({ options: { seed: 2 }, notes: [] });
  });

  it('treats a bare flag as on and 0 as off', () => {
    expect(parseUrlOptions('?autorun&faulty=0', PAGE).options).toEqual({ autorun: true, faulty: false });
  });

  it('keeps its documented forms for a switch: an attribute’s own name is no value in an address', () => {
    expect(parseUrlOptions('?autorun=autorun&faulty=faulty&masking=0', PAGE)).toEqual({
      options: {},
      notes: [
        'Ignored autorun=autorun: expected 0 or 1.',
        'Ignored faulty=faulty: expected 0 or 1.',
        'Ignored masking=0: expected on or off.',
      ],
    });
  });
});

describe('cross-reference patterns: a URL may link only within its own site', () => {
  const xref = (pattern: string) => parseUrlOptions(`?xref=${encodeURIComponent(pattern)}`, PAGE);

  it('takes relative and same-site absolute patterns', () => {
    for (const p of ['/volume/{ref}/', './{ref}.html', '../{ref}', 'https://plates.example/v/{ref}'])
      expect(xref(p).options.xrefPattern, p).toBe(p);
  });

  it('refuses a tab-smuggled pattern that reads as a path but resolves to another host, naming where it leads', () => {
    const { options, notes } = parseUrlOptions('?xref=/%09/evil.example/{ref}', PAGE);
    expect(options.xrefPattern).toBeUndefined();
    expect(notes).toEqual([
      'Ignored xref=/\t/evil.example/{ref}: expected a link on this site (https://plates.example); it leads to evil.example. A site that embeds the plate may link elsewhere with its xref-pattern attribute or xrefPattern prop.',
    ]);
  });

  it('refuses other hosts however they are spelled', () => {
    for (const p of [
      'https://evil.example/{ref}',
      '//evil.example/{ref}',
      '/\\evil.example/{ref}',
      '\\\\evil.example/{ref}',
      '/\n/evil.example/{ref}',
      'https://plates.example.evil.example/{ref}',
      'http://plates.example/{ref}',
    ]) {
      expect(xref(p).options.xrefPattern, JSON.stringify(p)).toBeUndefined();
    }
  });

  it('lets the embedding site link to another host through an attribute or a prop', () => {
    expect(checkOptions({ xrefPattern: 'https://volume.example/{ref}' }, 'prop', PAGE).options.xrefPattern).toBe(
      'https://volume.example/{ref}',
    );
    expect(propsFromAttributes((n) => (n === 'xref-pattern' ? '//volume.example/{ref}' : null), PAGE).xrefPattern).toBe(
      '//volume.example/{ref}',
    );
    expect(checkOptions({ xrefPattern: 'javascript:alert("{ref}")' }, 'prop', PAGE).notes).toHaveLength(1);
  });
});

describe('props (checked on the main thread, as the URL is)', () => {
  it('takes values of the right type and range', () => {
    const given = {
      start: 'scratch',
      faulty: true,
      masking: false,
      advantage: 'raw',
      temperature: 1.5,
      seed: 0,
      steps: 40,
      backend: 'cpu',
      autorun: false,
    };
    expect(checkOptions(given, 'prop', PAGE)).toEqual({ options: given, notes: [] });
  });

  it('names each bad value as the code wrote it, and drops it', () => {
    const { options, notes } = checkOptions(
      { seed: 1.5, steps: 100, temperature: '1', masking: 'off', start: undefined },
      'prop',
      PAGE,
    );
    expect(options).toEqual({});
    expect(notes).toEqual([
      'Ignored seed={1.5}: expected a whole number from 0 to 2147483647.',
      'Ignored steps={100}: expected a whole number from 1 to 40.',
      'Ignored temperature={"1"}: expected one of 0.5, 1, 1.5.',
      'Ignored masking={"off"}: expected true or false.',
    ]);
  });

  it('takes an asset folder anywhere on the web, and a worker only from the page’s origin', () => {
    expect(
      checkOptions({ assetBase: 'https://cdn.example/plate/', workerUrl: '/static/plate-worker.js' }, 'prop', PAGE),
    ).toEqual({
      options: { assetBase: 'https://cdn.example/plate/', workerUrl: '/static/plate-worker.js' },
      notes: [],
    });
    expect(
      checkOptions({ assetBase: 'data:text/plain,x', workerUrl: 'https://cdn.example/w.js' }, 'prop', PAGE).notes,
    ).toEqual([
      'Ignored assetBase={"data:text/plain,x"}: expected an http(s) or relative folder URL, without ?query or #fragment.',
      'Ignored workerUrl={"https://cdn.example/w.js"}: expected a script from this page’s origin (https://plates.example), as browsers start no worker from another.',
    ]);
    expect(checkOptions({ assetBase: '/plate/?v=2' }, 'prop', PAGE).notes).toHaveLength(1);
  });
});

describe('propsFromAttributes (the custom element)', () => {
  it('reads the attributes like the URL, with boolean attributes on when present', () => {
    const attrs: Record<string, string> = {
      autorun: '',
      faulty: '',
      steps: '5',
      'xref-pattern': '/plates/{ref}/',
      'asset-base': '/plate/',
      'worker-url': './w.js',
    };
    expect(propsFromAttributes((n) => attrs[n] ?? null, PAGE)).toEqual({
      autorun: true,
      faulty: true,
      steps: 5,
      xrefPattern: '/plates/{ref}/',
      assetBase: '/plate/',
      workerUrl: './w.js',
      notes: [],
    });
  });

  it('reads a boolean attribute as HTML does: present is on, whatever its value, but "false", "0" or "off"', () => {
    const BOOLEANS = { autorun: 'autorun', 'every-length': 'everyLength', faulty: 'faulty', masking: 'masking' };
    for (const [attribute, prop] of Object.entries(BOOLEANS)) {
      const read = (value: string) => propsFromAttributes((n) => (n === attribute ? value : null), PAGE);
      for (const on of ['', attribute, 'true', '1', 'on', 'yes', 'faulty'])
        expect(read(on), `${attribute}="${on}"`).toEqual({ [prop]: true, notes: [] });
      for (const off of ['false', '0', 'off', 'FALSE', 'Off'])
        expect(read(off), `${attribute}="${off}"`).toEqual({ [prop]: false, notes: [] });
    }
    expect(propsFromAttributes(() => null, PAGE)).toEqual({ notes: [] });
  });

  it('notes a bad attribute as the page wrote it, and leaves the files to the plate unless a folder is given', () => {
    const attrs: Record<string, string> = {
      seed: 'x',
      'xref-pattern': 'no-ref-here',
      start: 'scratch',
      'worker-url': 'https://cdn.example/w.js',
    };
    const props = propsFromAttributes((n) => attrs[n] ?? null, PAGE);
    expect(props.assetBase).toBeUndefined();
    expect(props.start).toBe('scratch');
    expect(props.xrefPattern).toBeUndefined();
    expect(props.notes).toEqual([
      'Ignored xref-pattern="no-ref-here": expected an http(s) or relative URL containing {ref}.',
      'Ignored seed="x": expected a whole number from 0 to 2147483647.',
      'Ignored worker-url="https://cdn.example/w.js": expected a script from this page’s origin (https://plates.example), as browsers start no worker from another.',
    ]);
  });
});
