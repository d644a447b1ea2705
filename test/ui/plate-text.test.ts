// The plate's text: the data carries exactly the editors' words, and the page renders all of it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import type { Paragraph } from '../../src/plate/types';
import { plainText } from '../../src/ui/inline';
import { Plate } from '../../src/ui/Plate';

// The editors' text, committed as it was handed over (the volume's plate.md for XXVI.3).
const SOURCE = resolve(import.meta.dirname, '../fixtures/plate.md');

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Every string the plate shows, in reading order. */
function plateStrings(): string[] {
  const p = PLATE;
  const paras = (xs: readonly Paragraph[]) => xs.map(plainText);
  return [
    p.header.volume,
    p.header.position,
    p.header.keywords.join(', '),
    p.title,
    p.lede,
    ...paras(p.body),
    p.caption,
    p.whatYouWillLearn,
    p.workshop.heading,
    plainText(p.workshop.text),
    p.longerEpisode.heading,
    ...paras(p.longerEpisode.paragraphs),
    p.terms.heading,
    ...p.terms.items.flatMap((t) => [t.name, t.definition]),
    p.takeaway.heading,
    plainText(p.takeaway.text),
    p.sources.heading,
    ...paras(p.sources.items),
  ];
}

function render(xrefPattern?: string): string {
  return renderToStaticMarkup(createElement(Plate, { plate: PLATE, xrefPattern }));
}

describe('the rendered plate', () => {
  it('shows every string of the plate data, in order', () => {
    const text = decode(render());
    let at = 0;
    for (const s of plateStrings()) {
      const found = text.indexOf(s, at);
      expect(found, `missing or out of order: ${s}`).toBeGreaterThanOrEqual(0);
      at = found + s.length;
    }
  });

  it('has one h1, the title, and real headings for the sections', () => {
    const html = render();
    expect(html.match(/<h1[^>]*>/g)).toHaveLength(1);
    expect(html).toMatch(/<h1[^>]*>Multi-Turn RL\.<\/h1>/);
    for (const h of ['What you will learn', 'Terms', 'Takeaway', 'Sources'])
      expect(html).toMatch(new RegExp(`<h2[^>]*>${h}</h2>`));
    for (const h of ['Workshop', 'The same algorithm, a longer episode'])
      expect(html).toMatch(new RegExp(`<h3[^>]*>${h}</h3>`));
  });

  it('renders cross-references as plain text standalone and as links with a URL pattern', () => {
    expect(render()).not.toMatch(/<a[^>]*class="xref"/);
    const html = render('https://volume.example/plates/{ref}');
    for (const ref of ['XIX.5', 'XVII', 'XXVI.4', 'XXVI.7', 'XXVI.8', 'XXVII'])
      expect(html).toContain(`href="https://volume.example/plates/${ref}"`);
  });

  it('links the sources to arXiv', () => {
    const html = render();
    for (const id of ['2402.03300', '2402.19446', '2507.20534'])
      expect(html).toContain(`href="https://arxiv.org/abs/${id}"`);
  });

  it('makes each term in the body focusable and describes it by its glossary entry', () => {
    const html = render();
    for (const t of PLATE.terms.items) {
      const dd = html.match(new RegExp(`<dd id="([^"]+)">${t.definition.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</dd>`));
      expect(dd, t.name).not.toBeNull();
      expect(html).toMatch(new RegExp(`class="term" tabindex="0" aria-describedby="${dd![1]}"`));
    }
  });
});

describe('the plate data', () => {
  it('carries exactly the words of the editors’ plate.md', () => {
    const md = readFileSync(SOURCE, 'utf8');
    const sections = new Map<string, string[]>();
    for (const block of md.split(/^## /m).slice(1)) {
      const [heading, ...rest] = block.split('\n');
      const paras = rest
        .join('\n')
        .split(/\n\s*\n/)
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('['));
      sections.set(heading!.trim(), paras);
    }
    const get = (h: string) => sections.get(h) ?? [];
    const lines = (h: string) => get(h).flatMap((p) => p.split('\n'));
    const p = PLATE;

    expect(lines('Running header')).toEqual([
      `- Volume: ${p.header.volume}`,
      `- Position: ${p.header.position}`,
      `- Keywords: ${p.header.keywords.join(', ')}`,
    ]);
    expect(get('Title')).toEqual([p.title]);
    expect(get('Lede')).toEqual([p.lede]);
    expect(get('Body')).toEqual(p.body.map(plainText));
    expect(get('Figure caption')).toEqual([p.caption]);
    expect(sections.has(p.whatYouWillLearn)).toBe(true);
    expect(get(p.workshop.heading)).toEqual([plainText(p.workshop.text)]);
    expect(get(p.longerEpisode.heading)).toEqual(p.longerEpisode.paragraphs.map(plainText));
    expect(lines(p.terms.heading)).toEqual(p.terms.items.map((t) => `- **${t.name}** — ${t.definition}`));
    expect(get(p.takeaway.heading)).toEqual([plainText(p.takeaway.text)]);
    expect(lines(p.sources.heading)).toEqual(p.sources.items.map((s, i) => `${i + 1}. ${plainText(s)}`));
    const table = [...sections.entries()]
      .find(([h]) => h.startsWith(p.numbers.heading))![1]
      .flatMap((s) => s.split('\n'));
    expect(table.slice(2)).toEqual(p.numbers.rows.map((r) => `| ${r.readout} | ${r.plate} |`));
  });

  it('places each stated number where its words say', () => {
    for (const r of PLATE.numbers.rows) {
      const percent = r.plate.match(/(\d+)%/)![1];
      expect(Math.round(r.value * 100)).toBe(Number(percent));
    }
  });
});
