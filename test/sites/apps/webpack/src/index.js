// A volume site's page script, plain JavaScript: the plate as a custom element.
import { definePlateElement } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

definePlateElement();
