// The browser tests' page for <plate-multi-turn-rl>, built from the source (the package test
// covers the packed element): one element whose attributes the test changes.
import { definePlateElement } from '../../../src/ui/element';

definePlateElement();
