// A page without the plate: what React itself costs a first visit, beside what a framework adds.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p id="empty">A volume page with no plate.</p>);
