/**
 * The demo photos: a portrait per person (gradient, a stylised figure, the initials) and a shared
 * set of training scenes for the extra photos, SVG rendered to WebP by sharp.
 */
import sharp from 'sharp';

export const PALETTES = [
  ['#f97316', '#7c3aed'],
  ['#0ea5e9', '#22c55e'],
  ['#ef4444', '#f59e0b'],
  ['#14b8a6', '#6366f1'],
  ['#ec4899', '#8b5cf6'],
  ['#84cc16', '#0891b2'],
  ['#f43f5e', '#fb923c'],
  ['#3b82f6', '#a855f7'],
] as const;
export const SKIN = ['#f5d0b5', '#e8b48f', '#c98e64', '#a56b45', '#7a4a2c', '#fde3cf'];
export const HAIR = ['#1f2937', '#4b2e1e', '#8b5a2b', '#d4a24c', '#111827', '#7c2d12'];
export const SHIRTS = ['#111827', '#f8fafc', '#1e3a8a', '#065f46', '#9f1239', '#374151'];

export const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The portrait agrees with the name's gender (issue #34: a man's name over a long-haired figure read wrong). */
export function portraitSvg(initials: string, gender: string, random: () => number): string {
  const [from, to] = PALETTES[Math.floor(random() * PALETTES.length)] as readonly [string, string];
  const skin = SKIN[Math.floor(random() * SKIN.length)];
  const hair = HAIR[Math.floor(random() * HAIR.length)];
  const shirt = SHIRTS[Math.floor(random() * SHIRTS.length)];
  const hairRoll = random();
  const isLongHair = gender === 'female' ? true : gender === 'male' ? false : hairRoll < 0.5;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" viewBox="0 0 480 640">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="480" height="640" fill="url(#bg)"/>
  <circle cx="400" cy="90" r="150" fill="#ffffff" opacity="0.08"/>
  <circle cx="60" cy="560" r="120" fill="#ffffff" opacity="0.06"/>
  ${isLongHair ? `<path d="M150 250 Q150 120 240 118 Q330 120 330 250 L338 380 L142 380 Z" fill="${hair}"/>` : ''}
  <path d="M90 640 C90 450 390 450 390 640 Z" fill="${shirt}"/>
  <rect x="215" y="330" width="50" height="70" rx="18" fill="${skin}"/>
  <ellipse cx="240" cy="250" rx="82" ry="95" fill="${skin}"/>
  <path d="M158 235 Q160 150 240 148 Q322 150 322 235 Q300 190 240 188 Q180 190 158 235 Z" fill="${hair}"/>
  <!-- The dumbbell stays in the upper right: the card's name and bio overlay the bottom third. -->
  <rect x="352" y="170" width="110" height="22" rx="8" fill="#e5e7eb" opacity="0.9"/>
  <rect x="340" y="155" width="22" height="52" rx="6" fill="#9ca3af"/>
  <rect x="452" y="155" width="22" height="52" rx="6" fill="#9ca3af"/>
  <text x="240" y="600" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="64" font-weight="700" text-anchor="middle" fill="#ffffff" opacity="0.92">${escapeXml(initials)}</text>
</svg>`;
}

export function sceneSvg(index: number): string {
  const [from, to] = PALETTES[index % PALETTES.length] as readonly [string, string];
  const kind = index % 3;
  const shapes =
    kind === 0
      ? // a barbell
        '<rect x="90" y="300" width="300" height="16" rx="8" fill="#e5e7eb"/><rect x="70" y="240" width="36" height="136" rx="10" fill="#111827"/><rect x="374" y="240" width="36" height="136" rx="10" fill="#111827"/><rect x="40" y="262" width="28" height="92" rx="8" fill="#374151"/><rect x="412" y="262" width="28" height="92" rx="8" fill="#374151"/>'
      : kind === 1
        ? // a running track
          '<ellipse cx="240" cy="360" rx="200" ry="120" fill="none" stroke="#f8fafc" stroke-width="18" opacity="0.85"/><ellipse cx="240" cy="360" rx="160" ry="88" fill="none" stroke="#f8fafc" stroke-width="6" opacity="0.5"/><circle cx="360" cy="270" r="22" fill="#fde68a"/>'
        : // a kettlebell
          '<path d="M190 250 Q190 180 240 180 Q290 180 290 250" fill="none" stroke="#111827" stroke-width="26"/><circle cx="240" cy="340" r="105" fill="#111827"/><rect x="200" y="320" width="80" height="26" rx="6" fill="#f59e0b"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" viewBox="0 0 480 640">
  <defs><linearGradient id="bg" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="480" height="640" fill="url(#bg)"/>
  <circle cx="${80 + ((index * 53) % 320)}" cy="${90 + ((index * 37) % 120)}" r="70" fill="#ffffff" opacity="0.1"/>
  ${shapes}
</svg>`;
}

export type RenderedPhoto = { photo: Buffer; thumbnail: Buffer };

export async function render(svg: string): Promise<RenderedPhoto> {
  const photo = await sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
  const thumbnail = await sharp(photo).resize(300, 400, { fit: 'inside' }).webp({ quality: 70 }).toBuffer();
  return { photo, thumbnail };
}

/** Runs the tasks with at most `size` at a time (sharp already uses several threads per image). */
export async function inPool<T>(tasks: readonly (() => Promise<T>)[], size: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await (tasks[index] as () => Promise<T>)();
      }
    }),
  );
  return results;
}
