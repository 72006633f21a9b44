import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { ShareIcon, SquarePlusIcon } from '../../ui/icons.tsx';

/** Step 1's picture: Safari's bottom toolbar, its share button lit. */
function ToolbarPicture() {
  return (
    <div
      aria-hidden="true"
      className="flex h-12 items-center justify-around rounded-2xl bg-stone-100 px-3 text-stone-600 ring-1 ring-inset ring-stone-200 dark:bg-stone-800 dark:text-stone-300 dark:ring-white/10"
    >
      <span className="text-lg leading-none">‹</span>
      <span className="text-lg leading-none">›</span>
      <span className="grid size-9 place-items-center rounded-full bg-brand-600 text-white shadow-sm ring-4 ring-brand-200 dark:bg-brand-500 dark:text-stone-950 dark:ring-brand-500/30">
        <ShareIcon className="size-5" />
      </span>
      <span className="size-4 rounded border-2 border-current" />
      <span className="grid size-4 grid-cols-2 gap-0.5">
        <span className="rounded-sm border-2 border-current" />
        <span className="rounded-sm border-2 border-current" />
      </span>
    </div>
  );
}

/** Step 2's picture: the share sheet's row to pick. */
function MenuPicture() {
  return (
    <div
      aria-hidden="true"
      className="flex flex-col overflow-hidden rounded-2xl bg-stone-100 text-sm ring-1 ring-inset ring-stone-200 dark:bg-stone-800 dark:ring-white/10"
    >
      <span className="flex h-10 items-center justify-between px-3.5 text-stone-600 dark:text-stone-300">
        Copiar
        <span className="size-4 rounded border-2 border-current" />
      </span>
      <span className="flex h-11 items-center justify-between bg-brand-50 px-3.5 font-semibold text-brand-900 ring-2 ring-inset ring-brand-500 dark:bg-brand-500/15 dark:text-brand-100">
        Añadir a pantalla de inicio
        <SquarePlusIcon className="size-5" />
      </span>
    </div>
  );
}

function Step({ number, children, picture }: { number: number; children: React.ReactNode; picture: React.ReactNode }) {
  return (
    <li className="flex flex-col gap-2.5">
      <p className="flex items-start gap-3 text-[0.9375rem] leading-snug">
        <span
          aria-hidden="true"
          className="grid size-7 shrink-0 place-items-center rounded-full bg-brand-700 text-sm font-bold text-white dark:bg-brand-500 dark:text-stone-950"
        >
          {number}
        </span>
        <span className="pt-0.5">{children}</span>
      </p>
      {picture}
    </li>
  );
}

/**
 * The iPhone's way home (issue #22): Safari has no install prompt, so the same "Instalar Entreno"
 * entry opens the two steps, each with a picture of what to tap.
 */
export function IosInstallSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Instalar Entreno"
      description="Tenla en tu pantalla de inicio en dos pasos, como cualquier otra app."
      size="sm"
      actions={
        <Button onClick={onClose} isFullWidth>
          Entendido
        </Button>
      }
    >
      <ol className="flex flex-col gap-5" aria-label="Pasos para instalar">
        <Step number={1} picture={<ToolbarPicture />}>
          Toca <strong className="font-semibold">Compartir</strong> en la barra de Safari.
        </Step>
        <Step number={2} picture={<MenuPicture />}>
          Elige <strong className="font-semibold">Añadir a pantalla de inicio</strong> y después{' '}
          <strong className="font-semibold">Añadir</strong>.
        </Step>
      </ol>
    </Dialog>
  );
}
