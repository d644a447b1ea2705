// The plate as a site embeds it: one component and one element, whatever imports them; props
// checked on the main thread with a note a reader can see, as URL options are; the link that sets
// a configuration up again built from the plate's own options, never from a host page's address.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { INITIAL_STATE } from '../../src/client/worker-state';
import * as element from '../../src/ui/element';
import { Figure, type FigureProps } from '../../src/ui/figure/Figure';
import * as lib from '../../src/ui/lib';
import { MultiTurnRLPlate } from '../../src/ui/MultiTurnRLPlate';
import { FIGURE_PROPS, run } from './fixtures';

/** The status line's notes, as a reader sees them. */
const notesOf = (html: string) =>
  [...html.matchAll(/<p class="status-note">([^<]*)<\/p>/g)].map((m) => m[1]!.replaceAll('&quot;', '"'));

describe('one plate, whoever embeds it', () => {
  it('the library exports the very component the custom element renders, and the element’s definer', () => {
    expect(lib.MultiTurnRLPlate).toBe(MultiTurnRLPlate);
    expect(lib.definePlateElement).toBe(element.definePlateElement);
  });
});

describe('props, checked on the main thread', () => {
  const render = (props: Record<string, unknown>) => renderToStaticMarkup(createElement(MultiTurnRLPlate, props));

  it('a fractional seed is named in the status line, and the plate still renders', () => {
    const notes = notesOf(render({ seed: 1.5 }));
    expect(notes).toEqual(['Ignored seed={1.5}: expected a whole number from 0 to 2147483647.']);
  });

  it('steps outside 1 to 40 are named, as the README promises', () => {
    expect(notesOf(render({ steps: 0 }))).toEqual(['Ignored steps={0}: expected a whole number from 1 to 40.']);
    expect(notesOf(render({ steps: 100 }))).toEqual(['Ignored steps={100}: expected a whole number from 1 to 40.']);
    expect(notesOf(render({ steps: 40 }))).toEqual([]);
  });

  it('a value of the wrong type from plain JavaScript is named too, and the host’s own notes are kept', () => {
    const notes = notesOf(render({ faulty: 'yes', start: 'middle', notes: ['From the host.'] }));
    expect(notes).toEqual([
      'From the host.',
      'Ignored faulty={"yes"}: expected true or false.',
      'Ignored start={"middle"}: expected one of agent, pretrained, scratch.',
    ]);
  });
});

describe('the link that sets a configuration up again', () => {
  const PROPS: FigureProps = {
    ...FIGURE_PROPS,
    worker: { ...INITIAL_STATE, status: 'done', loading: null },
    run: run(1, true, 3),
    settings: { ...PLATE_SETTINGS, faulty: true },
  };
  const host = globalThis as { location?: unknown };
  afterEach(() => {
    delete host.location;
  });

  it('is not made from the host page’s address, which an embedded plate never reads', () => {
    host.location = new URL('https://volume.example/plates/xxvi-3/?chapter=2');
    const html = renderToStaticMarkup(createElement(Figure, PROPS));
    expect(html).toContain('Take this run away');
    expect(html).not.toContain('volume.example');
    expect(html).not.toContain('sets this configuration up again');
  });

  it('is the one its host makes from the run’s configuration, when the host can set a plate up from a link', () => {
    const html = renderToStaticMarkup(
      createElement(Figure, {
        ...PROPS,
        reproduceUrl: (c) => `https://plates.example/xxvi-3/?faulty=${c.faulty ? 1 : 0}&seed=${c.seed}`,
      }),
    );
    expect(html).toContain(
      '<a href="https://plates.example/xxvi-3/?faulty=1&amp;seed=1">a link that sets this configuration up again</a>',
    );
  });
});
