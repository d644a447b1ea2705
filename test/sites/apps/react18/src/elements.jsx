// The custom element on React 18.0.0: React 18 hands a custom element's props over as attributes.
import { createRoot } from 'react-dom/client';
import { definePlateElement } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

definePlateElement();
createRoot(document.getElementById('root')).render(<plate-multi-turn-rl autorun faulty steps={2} />);
