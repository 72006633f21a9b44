/**
 * Photo addresses (spec 001 §2): stored keys are served at `/<key>` with a `.thumb.webp` sibling;
 * older data may hold full URLs, sometimes with the host written twice, which we collapse.
 */
export const DEFAULT_AVATAR_SRC = '/avatar-default.svg';

const SCHEME = /https?:\/\//gi;

/** "http://hosthttp://host/p" or "http://host/http://host/p" → "http://host/p"; anything else unchanged. */
export function collapseDoubledHost(address: string): string {
  const starts = [...address.matchAll(SCHEME)].map((match) => match.index ?? 0);
  const last = starts.at(-1);
  if (starts.length < 2 || last === undefined) return address;
  return address.slice(last);
}

/** The address of a photo key or URL; `thumbnail` asks for the small version of our own keys. */
export function photoSrc(key: string | null | undefined, options: { thumbnail?: boolean } = {}): string {
  if (!key) return DEFAULT_AVATAR_SRC;
  if (/^(https?:|blob:|data:)/i.test(key)) return collapseDoubledHost(key);
  const path = key.startsWith('/') ? key : `/${key}`;
  if (options.thumbnail && /^\/photos\/.+(?<!\.thumb)\.webp$/.test(path)) return path.replace(/\.webp$/, '.thumb.webp');
  return path;
}

/**
 * What to show after an image failed to load: first the collapsed address when the failed one
 * had its host twice, then the default avatar; null when the default avatar itself failed.
 */
export function nextPhotoFallback(failedSrc: string): string | null {
  const collapsed = collapseDoubledHost(failedSrc);
  if (collapsed !== failedSrc) return collapsed;
  if (failedSrc.endsWith(DEFAULT_AVATAR_SRC)) return null;
  return DEFAULT_AVATAR_SRC;
}
