import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes, loadFirstPage } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

// The first page's chunk downloads while React and the shell start; rendering waits for it, so the shell and
// the page appear together in one paint. (Not a top-level await: the pages import from this chunk.)
void loadFirstPage(window.location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </StrictMode>,
  ),
);
