// Mount only. On a phone-class CPU the page's first work is split so that no piece holds the main
// thread long (`npm run bench -- phone`): React's own code is evaluated first, the page's code (the
// plate's text, its options) as a chunk of its own after it, and the figure's after that
// (src/ui/Page.tsx); and the first render is a transition, which React renders in slices with the
// browser free in between.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/page.css';

const root = createRoot(document.getElementById('root')!);
void import('./ui/Page').then(({ Page }) =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <Page />
      </StrictMode>,
    ),
  ),
);
