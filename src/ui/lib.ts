/**
 * The library: the plate as a React component and as a custom element. Built by
 * `npm run build:lib` into dist-lib/ with React external; the checkpoints and the reference
 * runs are copied beside the bundle, and the plate finds them (and the worker and its .wasm
 * files) relative to this module unless `assetBase` says otherwise.
 *
 *   import { MultiTurnRLPlate } from 'multi-turn-rl-plate';
 *   import 'multi-turn-rl-plate/style.css';
 *   <MultiTurnRLPlate xrefPattern="/volume/plates/{ref}/" autorun />
 *
 *   import { definePlateElement } from 'multi-turn-rl-plate';
 *   definePlateElement();
 *   <plate-multi-turn-rl xref-pattern="/volume/plates/{ref}/" autorun></plate-multi-turn-rl>
 */
import { createElement } from 'react';
import { definePlateElement as define } from './element';
import { MultiTurnRLPlate as Plate, type MultiTurnRLPlateProps } from './MultiTurnRLPlate';

export type { MultiTurnRLPlateProps } from './MultiTurnRLPlate';
export type { PlateOptions } from './options';
export type { PlateHeightMessage } from './useEmbedHeight';
export { ELEMENT_NAME } from './element';

/** Where the library's own files lie: the folder of this bundle. */
const LIBRARY_BASE = new URL(/* @vite-ignore */ './', import.meta.url).href;

export function MultiTurnRLPlate(props: MultiTurnRLPlateProps) {
  return createElement(Plate, { ...props, assetBase: props.assetBase ?? LIBRARY_BASE });
}

/** Registers <plate-multi-turn-rl>; its assets default to the library's folder too. */
export function definePlateElement(): void {
  define(LIBRARY_BASE);
}
