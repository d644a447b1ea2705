/**
 * <plate-multi-turn-rl>: the plate as a custom element, with the React component's options as
 * attributes (PlateElementAttributes). Boolean attributes follow HTML: present = on, whatever the
 * value, but "false", "0" or "off" (src/ui/options.ts). Attributes are live: a change re-renders
 * the same plate with the new props, and the figure acts on it as on the matching control
 * (src/ui/LiveFigure.tsx). The element renders in its own light DOM, so the library's stylesheet
 * (scoped under .mtrl-plate) applies.
 */
import { createRoot, type Root } from 'react-dom/client';
import { MultiTurnRLPlate, type MultiTurnRLPlateProps } from './MultiTurnRLPlate';
import type { BackendName, CalibrateMode } from '../protocol/backends';
import type { SettingAttributes } from '../pipeline/settings';
import { NAMES, parseAttributes } from './options';

export const ELEMENT_NAME = 'plate-multi-turn-rl';

/** The element's attributes: each is the React prop of the same meaning (the run settings' from their table). */
export interface PlateElementAttributes extends SettingAttributes {
  'xref-pattern'?: string;
  autorun?: boolean | string;
  'every-length'?: boolean | string;
  seed?: number | string;
  steps?: number | string;
  backend?: BackendName;
  calibrate?: CalibrateMode;
  'asset-base'?: string;
  'worker-url'?: string;
}

/** @internal A test seam: exported for test/ui/props.test.ts and options.test.ts. */
export const ATTRIBUTES = Object.values(NAMES).flatMap((n) =>
  n.attribute === null ? [] : [n.attribute],
) as (keyof PlateElementAttributes)[];

/**
 * Reads the element's attributes through the option checks, so bad values get the same notes.
 * @internal A test seam: exported for test/ui/options.test.ts.
 */
export function propsFromAttributes(get: (name: string) => string | null, base: string): MultiTurnRLPlateProps {
  const { options, notes } = parseAttributes(get, base);
  return { ...options, notes };
}

/** Registers the element once. */
export function definePlateElement(): void {
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
      this.root!.render(<MultiTurnRLPlate {...propsFromAttributes((n) => this.getAttribute(n), this.baseURI)} />);
    }
  }
  customElements.define(ELEMENT_NAME, PlateElement);
}
