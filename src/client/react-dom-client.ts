import * as ReactDomClient from 'react-dom/client';

/**
 * react-dom's client, started where this module is evaluated. react-dom is CommonJS: the bundle
 * wraps its body in a function that runs where it is first required. In the chunk of its own
 * that vite.config.ts gives it (`entryChunks`), the login page built at build time evaluates it
 * ahead of the entry, in a task of its own (src/client/prerendered-start.ts, issue 34).
 */
export const { createRoot } = ReactDomClient;
