// Two plates on one page as custom elements, typed in TSX through the package's declarations.
import { createRoot } from 'react-dom/client';
import { definePlateElement, ELEMENT_NAME } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

definePlateElement();
document.title += ` (${ELEMENT_NAME})`;

createRoot(document.getElementById('root')!).render(
  <>
    <plate-multi-turn-rl id="first" autorun steps="2" xref-pattern="/volume/plates/{ref}/" />
    <plate-multi-turn-rl id="second" autorun faulty steps={2} />
  </>,
);

// @ts-expect-error the element has no such start (made, never rendered)
const wrong = <plate-multi-turn-rl start="middle" />;
void wrong;
