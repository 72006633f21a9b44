/**
 * The only script of the page rendered at build time (/login, docs/decisions/0031, issue 34): the
 * page paints with its inline critical CSS alone, and this starts the app once that paint is on
 * screen, or at once when the person acts first. It takes the app's stylesheets and scripts from
 * the page's inert `<template id="app-start">`, loads the stylesheets before any script (the app
 * renders what the critical CSS does not cover), then evaluates the entry's chunks one per task so
 * that no single task holds a slow phone's main thread for long.
 *
 * A tap on a static button before the app is live is not lost: it is held (the static page's
 * buttons do nothing by themselves) and replayed on the same button of the live page once the
 * client's first render has replaced the static one.
 *
 * Built on its own as a classic script by scripts/prerender.mjs (a deferred classic script is
 * fetched at low priority and blocks nothing); it imports nothing.
 */

/** The `id` of the template that holds the app's stylesheets and scripts in the static page. */
export const APP_START_TEMPLATE_ID = 'app-start';
/** Set on a template's modulepreload whose chunk may be evaluated before the entry (no cycle back to it). */
export const EVALUATE_AHEAD_ATTRIBUTE = 'data-evaluate-ahead';
/** The events that mean a person is about to act: the app starts without waiting for the paint. */
export const ACTION_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

type StartOptions = {
  document: Document;
  /** Runs `callback` once the page's first contentful paint is on screen (or cannot be observed). */
  afterFirstPaint(callback: () => void): void;
  /** Lets the browser paint and handle input before `callback` (one task per chunk). */
  nextTask(callback: () => void): void;
  importModule(url: string): Promise<unknown>;
};

/** The index of `button` among the buttons of `root`, and its text: what the replay matches. */
function describeButton(root: Element, button: Element) {
  return { index: [...root.querySelectorAll('button')].indexOf(button as HTMLButtonElement), text: button.textContent };
}

/** Resolves once `link` has loaded or failed (a missing stylesheet must not keep the app from starting). */
function whenLoaded(link: HTMLLinkElement): Promise<void> {
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
  });
}

/** Starts the app of a page rendered at build time; returns `start`, which starts it now. */
export function startPrerenderedPage(options: StartOptions): () => void {
  const { document } = options;
  const root = document.getElementById('root');
  const template = document.getElementById(APP_START_TEMPLATE_ID);
  if (!root || !(template instanceof HTMLTemplateElement)) return () => undefined;
  const staticPage = root.firstElementChild;
  let pendingClick: { index: number; text: string | null } | null = null;
  let isStarted = false;

  const isStatic = (target: EventTarget | null) =>
    staticPage !== null && target instanceof Element && staticPage.contains(target);

  const onAction = () => start();
  // A static button does nothing: its click (or the form's submit, which would otherwise go out as
  // a plain GET with the fields in the address) is held and replayed on the live page.
  const onClick = (event: Event) => {
    if (!isStatic(event.target)) return;
    const button = (event.target as Element).closest('button');
    if (!button) return;
    event.preventDefault();
    pendingClick = describeButton(root, button);
    start();
  };
  const onSubmit = (event: Event) => {
    if (!isStatic(event.target)) return;
    event.preventDefault();
    const submitter = (event as SubmitEvent).submitter;
    if (submitter) pendingClick = describeButton(root, submitter);
    start();
  };
  for (const type of ACTION_EVENTS) document.addEventListener(type, onAction, { capture: true, passive: true });
  document.addEventListener('click', onClick, { capture: true });
  document.addEventListener('submit', onSubmit, { capture: true });

  // The client's first render replaces the static page (main.tsx): then the held tap goes to the
  // same button, if it is still the same one, and the static page's listeners go.
  const observer = new MutationObserver(() => {
    if (staticPage?.isConnected) return;
    observer.disconnect();
    for (const type of ACTION_EVENTS) document.removeEventListener(type, onAction, { capture: true });
    document.removeEventListener('click', onClick, { capture: true });
    document.removeEventListener('submit', onSubmit, { capture: true });
    const click = pendingClick;
    if (!click) return;
    // After the commit's effects (React runs them right after this task).
    options.nextTask(() => {
      const button = root.querySelectorAll('button')[click.index];
      if (button && button.textContent === click.text) button.click();
    });
  });
  observer.observe(root, { childList: true });

  function start() {
    if (isStarted) return;
    isStarted = true;
    const content = (template as HTMLTemplateElement).content;
    const stylesheets = [...content.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
    const preloads = [...content.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
    const entry = content.querySelector<HTMLScriptElement>('script[type="module"]');
    const head = document.head;
    const adopted = stylesheets.map((link) => {
      const live = document.importNode(link, true);
      head.append(live);
      return whenLoaded(live);
    });
    for (const link of preloads) head.append(document.importNode(link, true));
    const ahead = preloads.filter((link) => link.hasAttribute(EVALUATE_AHEAD_ATTRIBUTE)).map((link) => link.href);
    const evaluateNext = () => {
      const url = ahead.shift();
      if (url === undefined) {
        if (entry) void options.importModule(entry.src);
        return;
      }
      // A chunk that fails here fails again for the entry, which reports it.
      void options
        .importModule(url)
        .catch(() => undefined)
        .then(() => options.nextTask(evaluateNext));
    };
    void Promise.all(adopted).then(() => options.nextTask(evaluateNext));
  }

  options.afterFirstPaint(() => options.nextTask(start));
  return start;
}

/** Calls `callback` once the first contentful paint is reported; at once where paints are not observable. */
function afterFirstPaint(callback: () => void) {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(callback, 0));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    callback();
  });
  observer.observe({ type: 'paint', buffered: true });
}

/** A new task: a message to a channel runs before timers and is not clamped like nested `setTimeout`. */
function nextTask(callback: () => void) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => callback();
  channel.port2.postMessage(undefined);
}

if (typeof document !== 'undefined' && document.currentScript) {
  startPrerenderedPage({ document, afterFirstPaint, nextTask, importModule: (url) => import(/* @vite-ignore */ url) });
}
