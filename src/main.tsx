// Mount only.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/page.css';
import { Page } from './ui/Page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Page />
  </StrictMode>,
);
