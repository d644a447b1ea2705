import { definePlateElement } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

definePlateElement();
