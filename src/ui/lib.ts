/**
 * The library: the plate as a React component and as a custom element (`npm pack` →
 * multi-turn-rl-plate; README, "Use it in your site"). The very component and element the
 * standalone page uses. React is the consumer's; d3 and tfjs are the package's dependencies; the
 * worker, tfjs's .wasm, the checkpoints and the reference runs are referenced with
 * `new URL(…, import.meta.url)`, so the consumer's bundler (Vite, webpack 5) builds and emits them.
 * `assetBase` and `workerUrl` point the plate at files the site hosts itself.
 *
 *   import { MultiTurnRLPlate } from 'multi-turn-rl-plate';
 *   import 'multi-turn-rl-plate/style.css';
 *   <MultiTurnRLPlate xrefPattern="/volume/plates/{ref}/" autorun />
 *
 *   import { definePlateElement } from 'multi-turn-rl-plate';
 *   definePlateElement();
 *   <plate-multi-turn-rl xref-pattern="/volume/plates/{ref}/" autorun></plate-multi-turn-rl>
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PlateElementAttributes } from './element';

export { MultiTurnRLPlate, type MultiTurnRLPlateProps } from './MultiTurnRLPlate';
export { definePlateElement, ELEMENT_NAME, type PlateElementAttributes } from './element';
export type { PlateOptions } from './options';
export type { PlateHeightMessage } from './useEmbedHeight';
export type { RunConfig } from '../protocol/messages';

/** What `<plate-multi-turn-rl>` takes in TSX: an element's usual props and the plate's attributes. */
export type PlateElementProps = Omit<DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement>, keyof PlateElementAttributes> & PlateElementAttributes;

// Kept in the published declarations by scripts/build/lib-types.ts (the bundler drops augmentations).
declare module 'react' {
  // React's own JSX namespace, augmented: a namespace is the only way in.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'plate-multi-turn-rl': PlateElementProps;
    }
  }
}
