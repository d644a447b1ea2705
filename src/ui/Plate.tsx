/**
 * The printed plate: running header, title, lede, body, the figure (passed in, so the text
 * renders the same with or without a live trainer), the workshop notes, terms, takeaway, sources.
 */
import { Fragment, useMemo, useId, useState, type ReactNode } from 'react';
import type { Paragraph, PlateText } from '../plate/types';
import { Text, TextOptions, termElementId } from './inline';
import { PlateSlots } from './plate-slots';

interface Props {
  plate: PlateText;
  xrefPattern?: string;
  /**
   * The live figure; rendered between the body and "What you will learn". It may put its parts
   * beside the results' paragraphs (plate-slots.ts).
   */
  figure?: ReactNode;
}

export function Plate({ plate, xrefPattern, figure }: Props) {
  const idPrefix = `plate${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const section = (key: string) => `${idPrefix}-${key}`;
  const [slots, setSlots] = useState<readonly (HTMLElement | null)[]>([]);
  // One ref callback a paragraph, kept across renders: a new one each render would set the slot
  // to null and back, and render again.
  const count = plate.longerEpisode.paragraphs.length;
  const slotRefs = useMemo(
    () =>
      Array.from(
        { length: count },
        (_, i) => (el: HTMLElement | null) =>
          setSlots((was) => (was[i] === el ? was : Object.assign([...was], { [i]: el }))),
      ),
    [count],
  );
  return (
    <TextOptions.Provider value={{ xrefPattern, terms: plate.terms.items, idPrefix }}>
      <PlateSlots.Provider value={slots}>
        <article className="plate-article" lang="en">
          <RunningHeader header={plate.header} />
          <h1 className="title">{plate.title}</h1>
          <p className="lede">{plate.lede}</p>
          <Paragraphs of={plate.body} />

          <figure className="plate-figure">
            <figcaption>{plate.caption}</figcaption>
            {figure}
          </figure>

          <h2>{plate.whatYouWillLearn}</h2>
          <Section id={section('workshop')} level={3} heading={plate.workshop.heading}>
            <Paragraphs of={[plate.workshop.text]} />
          </Section>
          <Section id={section('longer')} className="results" level={3} heading={plate.longerEpisode.heading}>
            <Paragraphs of={plate.longerEpisode.paragraphs} after={slotRefs} />
          </Section>
          <Section id={section('terms')} className="terms" heading={plate.terms.heading}>
            <dl>
              {plate.terms.items.map((t) => (
                <div key={t.id} className="term-entry">
                  <dt>{t.name}</dt>
                  <dd id={termElementId(idPrefix, t.id)}>{t.definition}</dd>
                </div>
              ))}
            </dl>
          </Section>
          <Section id={section('takeaway')} className="takeaway" heading={plate.takeaway.heading}>
            <Paragraphs of={[plate.takeaway.text]} />
          </Section>
          <Section id={section('sources')} className="sources" heading={plate.sources.heading}>
            <ol>
              {plate.sources.items.map((s, i) => (
                <li key={i}>
                  <Text of={s} />
                </li>
              ))}
            </ol>
          </Section>
        </article>
      </PlateSlots.Provider>
    </TextOptions.Provider>
  );
}

function RunningHeader({ header }: { header: PlateText['header'] }) {
  return (
    <header className="running-header">
      <p className="running-head">
        <span className="volume">{header.volume}</span>
        <span className="position">{header.position}</span>
      </p>
      <p className="keywords">
        <span className="label">Keywords: </span>
        {header.keywords.join(', ')}
      </p>
    </header>
  );
}

/** The paragraphs; with `after`, each followed by a slot the figure may fill (plate-slots.ts). */
function Paragraphs({
  of,
  after,
}: {
  of: readonly Paragraph[];
  after?: readonly ((el: HTMLElement | null) => void)[];
}) {
  return of.map((p, i) => (
    <Fragment key={i}>
      <p>
        <Text of={p} />
      </p>
      {after && <div className="beside-slot" ref={after[i]} />}
    </Fragment>
  ));
}

/** A section labelled by its own heading (h2 unless `level` says otherwise). */
function Section({
  id,
  heading,
  level = 2,
  className,
  children,
}: {
  id: string;
  heading: string;
  level?: 2 | 3;
  className?: string;
  children: ReactNode;
}) {
  const H = level === 3 ? 'h3' : 'h2';
  return (
    <section className={className} aria-labelledby={id}>
      <H id={id}>{heading}</H>
      {children}
    </section>
  );
}
