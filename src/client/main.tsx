import 'virtual:uno.css';
import './ui/global.css';
import { StrictMode, startTransition } from 'react';
import { App, loadInitialRoute } from './app/app.tsx';
import { createRoot } from './react-dom-client.ts';
import { registerServiceWorker } from './services/sw-registration.ts';
import { startThemeSync } from './services/theme.ts';

// Before the first render, so the page never shows the wrong theme (CSP forbids an inline script).
startThemeSync();

const root = document.getElementById('root');
if (root) {
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // /login arrives rendered at build time (docs/decisions/0031): its markup stays on screen until
  // the route's code is here, then the first render replaces it with the same screen. That render
  // is a transition, which React splits into short slices, so a slow phone stays responsive while
  // it runs (nothing is missing on screen meanwhile). Other pages start from an empty #root and
  // render at once (the router shows its pending state).
  if (root.firstElementChild !== null) {
    void loadInitialRoute()
      .catch(() => undefined)
      .then(() => startTransition(() => createRoot(root).render(app)));
  } else {
    createRoot(root).render(app);
  }
}

registerServiceWorker();
