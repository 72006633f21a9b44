import path from 'node:path';
import { describe, expect, it } from 'vitest';

type CriticalCss = {
  criticalCss(css: string, markup: string): string;
  selectorClasses(selector: string): string[];
};
// A build script in plain JavaScript (scripts/prerender.mjs runs it in Node without a compiler).
const modulePath: string = path.resolve(import.meta.dirname, '../../scripts/critical-css.mjs');
const { criticalCss, selectorClasses } = (await import(modulePath)) as CriticalCss;

describe('the login page’s critical CSS (issue 34)', () => {
  it('reads UnoCSS’s escaped class names', () => {
    expect(selectorClasses('.lg\\:grid-cols-\\[minmax\\(0\\,1fr\\)_1fr\\]')).toEqual([
      'lg:grid-cols-[minmax(0,1fr)_1fr]',
    ]);
    expect(selectorClasses('.size-4\\.5')).toEqual(['size-4.5']);
    expect(selectorClasses('.\\32 xl\\:flex')).toEqual(['2xl:flex']);
    expect(selectorClasses('.dark .dark\\:bg-stone-900:hover')).toEqual(['dark', 'dark:bg-stone-900']);
  });

  it('keeps what the markup uses, in order and inside its groups, and drops the rest', () => {
    const css = [
      '@layer base,utilities;',
      '*,:before{box-sizing:border-box}',
      '.flex{display:flex}',
      '.grid{display:grid}',
      '.a,.unused{color:red}',
      '@media (min-width:64rem){.lg\\:flex{display:flex}.lg\\:grid{display:grid}}',
      '@media (min-width:80rem){.xl\\:grid{display:grid}}',
      '.dark .dark\\:text-white{color:#fff}',
      '.spin{animation:spin 1s linear infinite}',
      '@keyframes spin{to{transform:rotate(1turn)}}',
      '@keyframes unused{to{opacity:0}}',
    ].join('');
    const markup = '<main class="flex a lg:flex dark:text-white"><p class="spin">x</p></main>';
    expect(criticalCss(css, markup)).toBe(
      [
        '@layer base,utilities;',
        '*,:before{box-sizing:border-box}',
        '.flex{display:flex}',
        '.a{color:red}',
        '@media (min-width:64rem){.lg\\:flex{display:flex}}',
        '.dark .dark\\:text-white{color:#fff}',
        '.spin{animation:spin 1s linear infinite}',
        '@keyframes spin{to{transform:rotate(1turn)}}',
      ].join(''),
    );
  });

  it('reads class attributes as HTML (React escapes & and quotes)', () => {
    const css = ".content-\\[\\'\\'\\]{content:''}.b{color:blue}";
    expect(criticalCss(css, '<p class="content-[&#x27;&#x27;]">x</p>')).toBe(".content-\\[\\'\\'\\]{content:''}");
  });
});
