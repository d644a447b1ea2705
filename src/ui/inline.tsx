/** Renders the plate's inline pieces: plain text, cross-references, glossary terms and links. */
import { createContext, useContext } from 'react';
import type { Inline, Paragraph, Term as TermData, TermId } from '../plate/types';
import { Term } from './Term';

export interface TextContext {
  /** URL pattern for cross-references, with `{ref}` where the plate or volume goes. */
  xrefPattern?: string;
  terms: readonly TermData[];
  /** Prefix that keeps element ids unique when the plate is embedded more than once. */
  idPrefix: string;
}

export const TextOptions = createContext<TextContext>({ terms: [], idPrefix: 'plate' });

export const termElementId = (prefix: string, id: TermId): string => `${prefix}-term-${id}`;

/** The text of a paragraph, as the editors wrote it. */
export const plainText = (p: Paragraph): string =>
  p.map((piece) => (typeof piece === 'string' ? piece : piece.text)).join('');

function xrefUrl(pattern: string | undefined, ref: string): string | null {
  if (!pattern || !pattern.includes('{ref}')) return null;
  return pattern.split('{ref}').join(encodeURIComponent(ref));
}

function Piece({ piece }: { piece: Inline }) {
  const ctx = useContext(TextOptions);
  if (typeof piece === 'string') return piece;
  switch (piece.kind) {
    case 'ref': {
      const href = xrefUrl(ctx.xrefPattern, piece.ref);
      return href ? (
        <a className="xref" href={href}>
          {piece.text}
        </a>
      ) : (
        <span className="xref">{piece.text}</span>
      );
    }
    case 'term': {
      const term = ctx.terms.find((t) => t.id === piece.term);
      if (!term) return piece.text;
      return (
        <Term
          text={piece.text}
          definition={term.definition}
          name={term.name}
          describedBy={termElementId(ctx.idPrefix, term.id)}
        />
      );
    }
    case 'link':
      return (
        <a href={piece.href} rel="noopener">
          {piece.text}
        </a>
      );
  }
}

export function Text({ of }: { of: Paragraph }) {
  return of.map((piece, i) => <Piece key={i} piece={piece} />);
}
