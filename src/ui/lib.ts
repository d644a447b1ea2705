/**
 * The library: the plate as a React component and as a custom element (`npm pack` →
 * multi-turn-rl-plate; README, "Embedding in a site"). React is the consumer's; everything else
 * — the worker, tfjs and its .wasm, the checkpoints, the reference runs — comes with the
 * bundle, and the consumer's bundler emits the files it needs. `assetBase` points the plate at
 * a folder laid out like public/ instead.
 *
 *   import { MultiTurnRLPlate } from 'multi-turn-rl-plate';
 *   import 'multi-turn-rl-plate/style.css';
 *   <MultiTurnRLPlate xrefPattern="/volume/plates/{ref}/" autorun />
 *
 *   import { definePlateElement } from 'multi-turn-rl-plate';
 *   definePlateElement();
 *   <plate-multi-turn-rl xref-pattern="/volume/plates/{ref}/" autorun></plate-multi-turn-rl>
 */
import { createElement, type DetailedHTMLProps, type HTMLAttributes, type ReactElement } from 'react';
import { assetsAt } from './assets';
import { BUNDLED } from './bundled-assets';
import { definePlateElement as define, type PlateElementAttributes } from './element';
import { PlateView, type MultiTurnRLPlateProps } from './MultiTurnRLPlate';

export type { MultiTurnRLPlateProps } from './MultiTurnRLPlate';
export type { PlateOptions } from './options';
export type { PlateHeightMessage } from './useEmbedHeight';
export type { PlateElementAttributes } from './element';
export { ELEMENT_NAME } from './element';

export function MultiTurnRLPlate({ assetBase, ...props }: MultiTurnRLPlateProps): ReactElement {
  return createElement(PlateView, { ...props, assets: assetBase === undefined ? BUNDLED : assetsAt(assetBase) });
}

/** Registers <plate-multi-turn-rl>; its files default to the library's own, too. */
export function definePlateElement(): void {
  define(MultiTurnRLPlate);
}

/** What `<plate-multi-turn-rl>` takes in TSX: an element's usual props and the plate's attributes. */
export type PlateElementProps = Omit<DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement>, keyof PlateElementAttributes> & PlateElementAttributes;

// Kept in the published declarations by scripts/lib-types.ts (the bundler drops augmentations).
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'plate-multi-turn-rl': PlateElementProps;
    }
  }
}
