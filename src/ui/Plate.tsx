/**
 * The printed plate: running header, title, lede, body, the figure (passed in, so the text
 * renders the same with or without a live trainer), the workshop notes, terms, takeaway, sources.
 */
import { useId, type ReactNode } from 'react';
import type { PlateText } from '../plate/types';
import { Text, TextOptions, termElementId } from './inline';

interface Props {
  plate: PlateText;
  xrefPattern?: string;
  /** The live figure; rendered between the body and "What you will learn". */
  figure?: ReactNode;
}

export function Plate({ plate, xrefPattern, figure }: Props) {
  const idPrefix = `plate${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const { header } = plate;
  return (
    <TextOptions.Provider value={{ xrefPattern, terms: plate.terms.items, idPrefix }}>
      <article className="plate-article" lang="en">
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

        <h1 className="title">{plate.title}</h1>
        <p className="lede">{plate.lede}</p>
        {plate.body.map((p, i) => (
          <p key={i}>
            <Text of={p} />
          </p>
        ))}

        <figure className="plate-figure">
          <figcaption>{plate.caption}</figcaption>
          {figure}
        </figure>

        <h2>{plate.whatYouWillLearn}</h2>
        <section aria-labelledby={`${idPrefix}-workshop`}>
          <h3 id={`${idPrefix}-workshop`}>{plate.workshop.heading}</h3>
          <p>
            <Text of={plate.workshop.text} />
          </p>
        </section>
        <section aria-labelledby={`${idPrefix}-longer`}>
          <h3 id={`${idPrefix}-longer`}>{plate.longerEpisode.heading}</h3>
          {plate.longerEpisode.paragraphs.map((p, i) => (
            <p key={i}>
              <Text of={p} />
            </p>
          ))}
        </section>

        <section className="terms" aria-labelledby={`${idPrefix}-terms`}>
          <h2 id={`${idPrefix}-terms`}>{plate.terms.heading}</h2>
          <dl>
            {plate.terms.items.map((t) => (
              <div key={t.id} className="term-entry">
                <dt>{t.name}</dt>
                <dd id={termElementId(idPrefix, t.id)}>{t.definition}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section className="takeaway" aria-labelledby={`${idPrefix}-takeaway`}>
          <h2 id={`${idPrefix}-takeaway`}>{plate.takeaway.heading}</h2>
          <p>
            <Text of={plate.takeaway.text} />
          </p>
        </section>

        <section className="sources" aria-labelledby={`${idPrefix}-sources`}>
          <h2 id={`${idPrefix}-sources`}>{plate.sources.heading}</h2>
          <ol>
            {plate.sources.items.map((s, i) => (
              <li key={i}>
                <Text of={s} />
              </li>
            ))}
          </ol>
        </section>
      </article>
    </TextOptions.Provider>
  );
}
