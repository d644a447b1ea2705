/**
 * <plate-multi-turn-rl>: the plate as a custom element, with the React component's options as
 * attributes: xref-pattern, autorun, faulty, seed, steps, backend, asset-base. Boolean
 * attributes follow HTML (present = on, "false" or "0" = off). The element renders in its own
 * light DOM, so the library's stylesheet (scoped under .mtrl-plate) applies.
 */
import { createRoot, type Root } from 'react-dom/client';
import { MultiTurnRLPlate, type MultiTurnRLPlateProps } from './MultiTurnRLPlate';
import { isXrefPattern, parseUrlOptions } from './options';

export const ELEMENT_NAME = 'plate-multi-turn-rl';
const ATTRIBUTES = ['xref-pattern', 'autorun', 'faulty', 'seed', 'steps', 'backend', 'asset-base'] as const;

/** Reads the element's attributes through the URL parser, so bad values get the same notes. */
export function propsFromAttributes(get: (name: string) => string | null, defaultAssetBase?: string): MultiTurnRLPlateProps {
  const query = new URLSearchParams();
  for (const name of ['autorun', 'faulty', 'seed', 'steps', 'backend'] as const) {
    const value = get(name);
    if (value !== null) query.set(name, value);
  }
  const { options, notes } = parseUrlOptions(query.toString());
  const xref = get('xref-pattern');
  if (xref !== null && !isXrefPattern(xref)) notes.push(`Ignored xref-pattern=${xref}: expected an http(s) or relative URL containing {ref}.`);
  return {
    ...options,
    xrefPattern: xref !== null && isXrefPattern(xref) ? xref : undefined,
    assetBase: get('asset-base') ?? defaultAssetBase,
    notes,
  };
}

export function definePlateElement(defaultAssetBase?: string): void {
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
      this.root!.render(<MultiTurnRLPlate {...propsFromAttributes((n) => this.getAttribute(n), defaultAssetBase)} />);
    }
  }
  customElements.define(ELEMENT_NAME, PlateElement);
}
