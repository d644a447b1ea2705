// The phone bench's floor (scripts/bench/phone.ts): React and react-dom alone, rendering one
// paragraph. What a page built on React holds the main thread for before it can do anything of its own.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(createElement('p', null, 'React alone.'));
console.log('bench: finished'); // scripts/bench/long-tasks.ts's FINISHED_LINE: the bench's sign that the page is done
