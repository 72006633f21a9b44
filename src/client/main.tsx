import 'virtual:uno.css';
import './ui/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './services/sw-registration.ts';
import { startThemeSync } from './services/theme.ts';

// Before the first render, so the page never shows the wrong theme (CSP forbids an inline script).
startThemeSync();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

registerServiceWorker();
