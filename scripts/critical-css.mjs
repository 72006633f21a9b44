// The CSS a page rendered at build time needs for its first paint (docs/decisions/0031, issue 34):
// the rules of the app's stylesheets whose selectors can match its markup, decided by class names
// (every class a selector names must be on some element of the markup; `dark`, which the theme
// puts on <html>, counts as present). Rules without a class (the reset, html, body) stay; @media,
// @supports and @layer keep their structure, emptied ones go; @keyframes stay when a kept rule
// names them; @property and the layer order stay. Same order as the source, so once the whole
// stylesheet is applied over it nothing changes on screen.
import postcss from 'postcss';

/** The class names on the elements of `markup`. */
export function markupClasses(markup) {
  const classes = new Set(['dark']);
  for (const match of markup.matchAll(/\sclass="([^"]*)"/g))
    for (const name of (match[1] ?? '').split(/\s+/)) if (name) classes.add(decodeHtml(name));
  return classes;
}

function decodeHtml(text) {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The class names a selector names, unescaped (`.lg\:grid` → `lg:grid`, `.\32 xl` → `2xl`). */
export function selectorClasses(selector) {
  const names = [];
  for (const match of selector.matchAll(/\.((?:\\[0-9a-fA-F]{1,6}\s?|\\.|[\w-])+)/g)) {
    names.push(
      (match[1] ?? '').replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_, hex, char) =>
        hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : char,
      ),
    );
  }
  return names;
}

/** Splits a selector list at its top-level commas (not those inside :is(), :not() or attribute values). */
function splitSelectors(selector) {
  const parts = [];
  let depth = 0;
  let quote = null;
  let start = 0;
  for (let index = 0; index < selector.length; index += 1) {
    const char = selector[index];
    if (char === '\\') index += 1;
    else if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(selector.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts;
}

/** The animation names a declaration value may name. */
function animationNames(value) {
  return value.split(/[\s,]+/).filter(Boolean);
}

/** The rules of `css` that `markup` needs, as CSS text (minified the way the source is). */
export function criticalCss(css, markup) {
  const classes = markupClasses(markup);
  const tree = postcss.parse(css);
  const usedAnimations = new Set();
  tree.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test(rule.parent.name)) return;
    const kept = splitSelectors(rule.selector).filter((selector) =>
      selectorClasses(selector).every((name) => classes.has(name)),
    );
    if (kept.length === 0) {
      rule.remove();
      return;
    }
    rule.selector = kept.join(',');
    rule.walkDecls(/^(-webkit-)?animation(-name)?$/i, (declaration) => {
      for (const name of animationNames(declaration.value)) usedAnimations.add(name);
    });
  });
  tree.walkAtRules(/keyframes$/i, (atRule) => {
    if (!usedAnimations.has(atRule.params.trim())) atRule.remove();
  });
  // Emptied groups go, innermost first.
  let isChanged = true;
  while (isChanged) {
    isChanged = false;
    tree.walkAtRules((atRule) => {
      if (!['media', 'supports', 'layer', 'container'].includes(atRule.name.toLowerCase())) return;
      if (atRule.nodes !== undefined && atRule.nodes.length === 0) {
        atRule.remove();
        isChanged = true;
      }
    });
  }
  return tree.toString();
}
