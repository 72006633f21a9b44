import { DialogPanel, DialogTitle, Dialog as HeadlessDialog } from '@headlessui/react';
import { ChevronRightIcon, CloseIcon } from './icons.tsx';
import { SafeImage } from './safe-image.tsx';

export type PhotoViewerProps = {
  /** Photo keys or addresses; the viewer is open while `index` is not null. */
  photos: readonly string[];
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** Whose photos these are, for the title and the alternative texts ("Foto 2 de 4 de Lucía"). */
  name: string;
};

/** Wraps around both ways: previous of the first is the last. */
export function wrapIndex(index: number, count: number): number {
  return count === 0 ? 0 : ((index % count) + count) % count;
}

const NAV_BUTTON =
  'absolute top-1/2 grid size-12 -translate-y-1/2 place-items-center rounded-full bg-white/15 text-white backdrop-blur ' +
  'hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white';

/** A full-screen gallery with previous and next that wrap around; Escape and the arrow keys work. */
export function PhotoViewer({ photos, index, onIndexChange, onClose, name }: PhotoViewerProps) {
  const count = photos.length;
  const current = index === null ? 0 : wrapIndex(index, count);
  const hasMany = count > 1;
  return (
    <HeadlessDialog open={index !== null && count > 0} onClose={onClose} className="relative z-[60]">
      <div className="fixed inset-0 bg-stone-950/95" aria-hidden="true" />
      <DialogPanel
        className="fixed inset-0 flex flex-col"
        onKeyDown={(event) => {
          if (!hasMany) return;
          if (event.key === 'ArrowRight') onIndexChange(wrapIndex(current + 1, count));
          if (event.key === 'ArrowLeft') onIndexChange(wrapIndex(current - 1, count));
        }}
      >
        <div className="flex items-center justify-between gap-3 px-4 pb-2 pt-[calc(0.75rem+env(safe-area-inset-top))] text-white">
          <DialogTitle className="text-base font-semibold">
            {`Fotos de ${name}`}
            <span className="ml-2 text-sm font-medium text-white/70">{`${current + 1} / ${count}`}</span>
          </DialogTitle>
          <button
            type="button"
            onClick={onClose}
            aria-label="Cerrar galería"
            className="grid size-11 place-items-center rounded-full bg-white/10 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
          >
            <CloseIcon />
          </button>
        </div>
        <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-[calc(1rem+env(safe-area-inset-bottom))]">
          <SafeImage
            key={photos[current]}
            photo={photos[current]}
            alt={`Foto ${current + 1} de ${count} de ${name}`}
            className="max-h-full max-w-full rounded-2xl object-contain"
          />
          {hasMany && (
            <>
              <button
                type="button"
                aria-label="Foto anterior"
                onClick={() => onIndexChange(wrapIndex(current - 1, count))}
                className={`${NAV_BUTTON} left-3`}
              >
                <ChevronRightIcon className="size-6 rotate-180" />
              </button>
              <button
                type="button"
                aria-label="Foto siguiente"
                onClick={() => onIndexChange(wrapIndex(current + 1, count))}
                className={`${NAV_BUTTON} right-3`}
              >
                <ChevronRightIcon className="size-6" />
              </button>
            </>
          )}
        </div>
      </DialogPanel>
    </HeadlessDialog>
  );
}
