import { useId, useRef } from 'react';
import { MAX_PHOTOS, PHOTO_MIME_TYPES } from '#shared/profile/options';
import { cx } from '../../ui/cx.ts';
import { CameraIcon, ChevronRightIcon, CloseIcon } from '../../ui/icons.tsx';
import { SafeImage } from '../../ui/safe-image.tsx';
import { FieldError } from './form-parts.tsx';

export type PhotoTile = { id: string; src: string; label: string };

const TILE_BUTTON =
  'grid size-8 place-items-center rounded-full bg-stone-950/70 text-white backdrop-blur hover:bg-stone-950/90 ' +
  'focus-visible:outline-2 focus-visible:outline-white disabled:opacity-40';

/**
 * The photos of a profile form: previews with remove (and, when `onMove` is given, reorder)
 * buttons, and an "add" tile that opens the file picker. Up to MAX_PHOTOS.
 */
export function PhotoGrid({
  tiles,
  onAdd,
  onRemove,
  onMove,
  error,
  isBusy = false,
  progress,
}: {
  tiles: readonly PhotoTile[];
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  onMove?: (id: string, offset: -1 | 1) => void;
  error?: string | null;
  isBusy?: boolean;
  /** Upload percentage while uploading. */
  progress?: number | null;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const canAdd = tiles.length < MAX_PHOTOS && !isBusy;
  return (
    <section aria-labelledby={`${inputId}-title`} className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between gap-3">
        <h3 id={`${inputId}-title`} className="text-sm font-semibold text-stone-800 dark:text-stone-200">
          Fotos <span className="text-brand-700 dark:text-brand-400">*</span>
        </h3>
        <span className="text-xs font-medium tabular-nums text-stone-600 dark:text-stone-400">
          {`${tiles.length}/${MAX_PHOTOS} · JPG, PNG o WEBP, máx. 5MB`}
        </span>
      </div>
      <ul className="grid grid-cols-3 gap-2.5 sm:grid-cols-4 sm:gap-3">
        {tiles.map((tile, index) => (
          <li
            key={tile.id}
            className="relative aspect-[3/4] overflow-hidden rounded-2xl bg-stone-200 ring-1 ring-stone-900/5 dark:bg-stone-800 dark:ring-white/8"
          >
            <SafeImage photo={tile.src} alt={tile.label} className="size-full object-cover" />
            {index === 0 && (
              <span className="absolute bottom-1.5 left-1.5 rounded-full bg-brand-700 px-2 py-0.5 text-[0.6875rem] font-bold text-white dark:bg-brand-500 dark:text-stone-950">
                Principal
              </span>
            )}
            <button
              type="button"
              className={cx(TILE_BUTTON, 'absolute right-1.5 top-1.5')}
              aria-label={`Quitar ${tile.label.toLowerCase()}`}
              onClick={() => onRemove(tile.id)}
              disabled={isBusy}
            >
              <CloseIcon className="size-4" />
            </button>
            {onMove && tiles.length > 1 && (
              <div className="absolute bottom-1.5 right-1.5 flex gap-1">
                <button
                  type="button"
                  className={TILE_BUTTON}
                  aria-label={`Mover ${tile.label.toLowerCase()} antes`}
                  disabled={isBusy || index === 0}
                  onClick={() => onMove(tile.id, -1)}
                >
                  <ChevronRightIcon className="size-4 rotate-180" />
                </button>
                <button
                  type="button"
                  className={TILE_BUTTON}
                  aria-label={`Mover ${tile.label.toLowerCase()} después`}
                  disabled={isBusy || index === tiles.length - 1}
                  onClick={() => onMove(tile.id, 1)}
                >
                  <ChevronRightIcon className="size-4" />
                </button>
              </div>
            )}
          </li>
        ))}
        {tiles.length < MAX_PHOTOS && (
          <li className="aspect-[3/4]">
            <button
              type="button"
              onClick={() => input.current?.click()}
              disabled={!canAdd}
              className="flex size-full flex-col items-center justify-center gap-1.5 rounded-2xl border-2 border-dashed border-stone-300 bg-white text-sm font-semibold text-stone-700 transition-colors hover:border-brand-500 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50 motion-reduce:transition-none dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200 dark:hover:border-brand-400 dark:hover:text-brand-300"
            >
              <CameraIcon />
              Añadir foto
            </button>
          </li>
        )}
      </ul>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={PHOTO_MIME_TYPES.join(',')}
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onAdd(files);
        }}
      />
      {progress !== null && progress !== undefined && (
        <div className="flex flex-col gap-1.5" aria-live="polite">
          <div className="flex justify-between text-sm font-medium text-stone-700 dark:text-stone-300">
            <span>Subiendo fotos...</span>
            <span className="tabular-nums">{`${progress}%`}</span>
          </div>
          <div
            role="progressbar"
            aria-label="Progreso de la subida de fotos"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width] duration-200 motion-reduce:transition-none dark:bg-brand-500"
              style={{ width: `${progress}%` }}
            />
          </div>
        </div>
      )}
      <FieldError message={error ?? undefined} />
    </section>
  );
}
