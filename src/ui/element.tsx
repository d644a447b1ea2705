/**
 * <plate-multi-turn-rl>: the plate as a custom element, with the React component's options as
 * attributes (PlateElementAttributes). Boolean attributes follow HTML (present = on, "false"
 * or "0" = off). The element renders in its own light DOM, so the library's stylesheet (scoped
 * under .mtrl-plate) applies.
 */
import type { ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MultiTurnRLPlate, type MultiTurnRLPlateProps } from './MultiTurnRLPlate';
import { isXrefPattern, normalXref, parseUrlOptions } from './options';

export const ELEMENT_NAME = 'plate-multi-turn-rl';

/** The element's attributes: each is the React prop of the same meaning. */
export interface PlateElementAttributes {
  'xref-pattern'?: string;
  autorun?: boolean | '' | 'true' | 'false' | '0' | '1';
  faulty?: boolean | '' | 'true' | 'false' | '0' | '1';
  start?: 'agent' | 'pretrained' | 'scratch';
  masking?: 'on' | 'off';
  advantage?: 'group' | 'raw';
  temperature?: 0.5 | 1 | 1.5 | '0.5' | '1' | '1.5';
  grader?: 'exact' | 'crash-pass' | 'trusts-tool';
  seed?: number | string;
  steps?: number | string;
  backend?: 'webgpu' | 'webgl' | 'wasm' | 'cpu';
  'asset-base'?: string;
}

const OPTION_ATTRIBUTES = ['autorun', 'faulty', 'start', 'masking', 'advantage', 'temperature', 'grader', 'seed', 'steps', 'backend'] as const satisfies readonly (keyof PlateElementAttributes)[];
export const ATTRIBUTES = ['xref-pattern', ...OPTION_ATTRIBUTES, 'asset-base'] as const satisfies readonly (keyof PlateElementAttributes)[];

/** Reads the element's attributes through the URL parser, so bad values get the same notes. */
export function propsFromAttributes(get: (name: string) => string | null): MultiTurnRLPlateProps {
  const query = new URLSearchParams();
  for (const name of OPTION_ATTRIBUTES) {
    const value = get(name);
    if (value !== null) query.set(name, value);
  }
  const { options, notes } = parseUrlOptions(query.toString());
  const xref = get('xref-pattern');
  if (xref !== null && !isXrefPattern(xref)) notes.push(`Ignored xref-pattern=${xref}: expected an http(s) or relative URL containing {ref}.`);
  const assetBase = get('asset-base');
  return {
    ...options,
    xrefPattern: xref !== null && isXrefPattern(xref) ? normalXref(xref) : undefined,
    ...(assetBase !== null && { assetBase }),
    notes,
  };
}

/** Registers the element once; it renders `Plate` (the library passes its own, with bundled files). */
export function definePlateElement(Plate: ComponentType<MultiTurnRLPlateProps> = MultiTurnRLPlate): void {
  if (typeof customElements === 'undefined' || customElements.get(ELEMENT_NAME)) return;

  class PlateElement extends HTMLElement {
    static observedAttributes = [...ATTRIBUTES];
    private root: Root | null = null;

    connectedCallback() {
      this.root ??= createRoot(this);
      this.render();
    }

    attributeChangedCallback() {
      if (this.root) this.render();
    }

    disconnectedCallback() {
      // Unmounting terminates the training worker; a re-connected element starts a fresh one.
      this.root?.unmount();
      this.root = null;
    }

    private render() {
      this.root!.render(<Plate {...propsFromAttributes((n) => this.getAttribute(n))} />);
    }
  }
  customElements.define(ELEMENT_NAME, PlateElement);
}
