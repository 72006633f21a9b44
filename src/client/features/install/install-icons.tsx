import type { ReactNode } from 'react';

/** The two glyphs Safari shows on the way to the home screen (Lucide's geometry, ISC licence). */
function Glyph({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      {children}
    </svg>
  );
}

/** Safari's "Compartir": a box with an arrow going up. */
export function ShareIcon({ className = 'size-5' }: { className?: string }) {
  return (
    <Glyph className={className}>
      <path d="M4 12v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8" />
      <path d="m16 6-4-4-4 4" />
      <path d="M12 2v13" />
    </Glyph>
  );
}

/** "Añadir a pantalla de inicio": a square with a plus. */
export function SquarePlusIcon({ className = 'size-5' }: { className?: string }) {
  return (
    <Glyph className={className}>
      <rect width="18" height="18" x="3" y="3" rx="2" />
      <path d="M8 12h8" />
      <path d="M12 8v8" />
    </Glyph>
  );
}

export function DownloadIcon({ className = 'size-5' }: { className?: string }) {
  return (
    <Glyph className={className}>
      <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" />
      <path d="m7 10 5 5 5-5" />
      <path d="M12 15V3" />
    </Glyph>
  );
}
