import { DialogPanel, DialogTitle, Dialog as HeadlessDialog } from '@headlessui/react';
import { Link } from '@tanstack/react-router';
import { Button, buttonClasses } from '../../ui/button.tsx';
import { HeartIcon, MessageIcon } from '../../ui/icons.tsx';
import { SafeImage } from '../../ui/safe-image.tsx';
import type { DeckMatch } from './deck-store.ts';

/** "¡Nuevo Entrenamiento!" after a mutual like (spec 001 §2). */
export function MatchModal({
  match,
  ownPhoto,
  onClose,
}: {
  match: DeckMatch | null;
  ownPhoto: string | null;
  onClose: () => void;
}) {
  const other = match?.otherUser;
  return (
    <HeadlessDialog open={match !== null} onClose={onClose} className="relative z-50">
      <div
        className="fixed inset-0 bg-gradient-to-br from-brand-700/95 via-rose-700/95 to-stone-950/95 backdrop-blur-sm"
        aria-hidden="true"
      />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-6">
        <DialogPanel className="flex w-full max-w-sm flex-col items-center gap-6 text-center text-white">
          <div className="flex items-center justify-center" aria-hidden="true">
            <span className="size-28 -rotate-6 overflow-hidden rounded-3xl ring-4 ring-white shadow-2xl">
              <SafeImage photo={ownPhoto} isThumbnail alt="" className="size-full object-cover" />
            </span>
            <span className="z-10 -mx-4 grid size-14 place-items-center rounded-full bg-white text-rose-600 shadow-xl motion-safe:animate-bounce">
              <HeartIcon filled className="size-7" />
            </span>
            <span className="size-28 rotate-6 overflow-hidden rounded-3xl ring-4 ring-white shadow-2xl">
              <SafeImage photo={other?.photos[0]} isThumbnail alt="" className="size-full object-cover" />
            </span>
          </div>
          <div className="flex flex-col gap-2">
            <DialogTitle className="text-3xl font-black tracking-tight">¡Nuevo Entrenamiento!</DialogTitle>
            <p className="text-lg font-medium text-white/90">{`¡Has conectado con ${other?.name ?? ''}!`}</p>
          </div>
          <div className="flex w-full flex-col gap-3">
            {match && (
              <Link
                to="/messages/$conversationId"
                params={{ conversationId: match.conversationId }}
                onClick={onClose}
                className={buttonClasses({
                  size: 'lg',
                  isFullWidth: true,
                  className: '!bg-white !text-stone-950 hover:!bg-stone-100',
                })}
              >
                <MessageIcon className="size-5" />
                Enviar mensaje
              </Link>
            )}
            <Button
              variant="ghost"
              size="lg"
              isFullWidth
              onClick={onClose}
              className="!text-white ring-1 ring-inset ring-white/60 enabled:hover:!bg-white/10"
            >
              Seguir buscando compañeros
            </Button>
          </div>
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}
