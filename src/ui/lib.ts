/**
 * The package's entry (`npm pack` → multi-turn-rl-plate; docs/embedding.md): the plate as a React
 * component and as a custom element, the very component and element the standalone page uses.
 * React is the site's (a peer); d3 and tfjs are built into the package's files. The worker, its
 * backends, tfjs's .wasm, the checkpoints and the reference runs are built already, in the folder
 * dist-lib/plate-<version>/, which the site's bundler copies (scripts/build/lib-build.ts);
 * `assetBase` and `workerUrl` point the plate at a copy the site hosts itself.
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
export type { RunConfig } from '../pipeline/settings';
export type { LinkConfig } from './figure/export/export';

/** What `<plate-multi-turn-rl>` takes in TSX: an element's usual props and the plate's attributes. */
export type PlateElementProps = Omit<
  DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement>,
  keyof PlateElementAttributes
> &
  PlateElementAttributes;

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
