import { useState } from 'react';
import { QUEDADA_STATUS_LABELS } from '#shared/quedadas/quedada-messages';
import { availableActions, endOf } from '#shared/quedadas/quedada-state';
import { durationText, quedadaWhen } from '#shared/quedadas/quedada-time';
import type { StoredQuedada } from '../../services/local-db.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { CalendarIcon, DumbbellIcon, MapPinIcon } from '../../ui/icons.tsx';
import { QuedadaForm } from './quedada-form.tsx';
import { actOnQuedada, discardFailed, downloadCalendar } from './quedada-store.ts';

const TONES: Record<StoredQuedada['status'], string> = {
  proposed: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-200',
  countered: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-200',
  accepted: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-500/15 dark:text-emerald-200',
  declined: 'bg-stone-200 text-stone-800 dark:bg-white/10 dark:text-stone-200',
  cancelled: 'bg-stone-200 text-stone-800 dark:bg-white/10 dark:text-stone-200',
  done: 'bg-brand-100 text-brand-900 dark:bg-brand-500/15 dark:text-brand-200',
  missed: 'bg-stone-200 text-stone-800 dark:bg-white/10 dark:text-stone-200',
};

/** Who did what, in the card's words. */
function headline(quedada: StoredQuedada, ownUserId: string, otherName: string): string {
  const isMine = quedada.proposedBy === ownUserId;
  if (quedada.status === 'proposed') return isMine ? 'Has propuesto un entreno' : `${otherName} te propone entrenar`;
  if (quedada.status === 'countered') return isMine ? 'Has propuesto otra hora' : `${otherName} propone otra hora`;
  if (quedada.status === 'cancelled') {
    if (!quedada.cancelledBy) return 'Quedada cancelada: la conversación ha terminado';
    return quedada.cancelledBy === ownUserId ? 'Has cancelado la quedada' : `${otherName} ha cancelado la quedada`;
  }
  if (quedada.status === 'declined')
    return isMine ? `${otherName} ha rechazado la quedada` : 'Has rechazado la quedada';
  return `Entreno con ${otherName}`;
}

/**
 * A quedada in the conversation (issue #21): what, when, where, its history of times, its state,
 * and the buttons the state machine allows this user now. A card still in the outbox says so and
 * offers no buttons; a refused one says why it failed.
 */
export function QuedadaCard({
  quedada,
  ownUserId,
  otherName,
}: {
  quedada: StoredQuedada;
  ownUserId: string;
  otherName: string;
}) {
  const [isCounterOpen, setIsCounterOpen] = useState(false);
  const members = Object.keys(quedada.confirmations) as [string, string];
  const actions =
    quedada.sync === 'synced' && quedada._id ? availableActions({ ...quedada, members }, ownUserId, new Date()) : [];
  const ownAnswer = quedada.confirmations[ownUserId];
  const titleId = `quedada-${quedada.key}`;
  const act = (action: Parameters<typeof actOnQuedada>[1]) => void actOnQuedada(quedada, action);

  return (
    <div
      className="my-1 flex justify-center"
      data-testid="quedada-card"
      data-status={quedada.status}
      data-sync={quedada.sync}
    >
      <article
        aria-labelledby={titleId}
        className="w-full max-w-sm rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-white/10"
      >
        <header className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 items-center gap-2">
            <span className="grid size-9 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
              <DumbbellIcon className="size-5" />
            </span>
            <h3 id={titleId} className="text-sm font-bold text-stone-900 dark:text-white">
              {headline(quedada, ownUserId, otherName)}
            </h3>
          </div>
          <span className={cx('shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold', TONES[quedada.status])}>
            {QUEDADA_STATUS_LABELS[quedada.status]}
          </span>
        </header>
        <p className="mt-3 text-base font-bold text-stone-900 dark:text-white">{quedada.activity}</p>
        <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
          <CalendarIcon className="size-4 shrink-0" />
          <span>
            <time dateTime={quedada.startsAt}>{quedadaWhen(quedada.startsAt)}</time> ·{' '}
            {durationText(quedada.durationMin)}
          </span>
        </p>
        <p className="mt-1 flex items-start gap-1.5 text-sm text-stone-700 dark:text-stone-200">
          <MapPinIcon className="mt-0.5 size-4 shrink-0" />
          <span>
            {quedada.gymName}
            {quedada.gymAddress && (
              <span className="block text-stone-600 dark:text-stone-400">{quedada.gymAddress}</span>
            )}
          </span>
        </p>
        {quedada.note && <p className="mt-2 text-sm italic text-stone-600 dark:text-stone-300">“{quedada.note}”</p>}
        {quedada.history.length > 0 && (
          <details className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            <summary className="cursor-pointer font-semibold">
              Horas propuestas antes ({quedada.history.length})
            </summary>
            <ol className="mt-1 flex flex-col gap-0.5" aria-label="Historial de horas">
              {quedada.history.map((entry) => (
                <li key={entry.at}>
                  <span className="line-through">{quedadaWhen(entry.startsAt)}</span> ·{' '}
                  {durationText(entry.durationMin)} ({entry.by === ownUserId ? 'tú' : otherName})
                </li>
              ))}
            </ol>
          </details>
        )}
        {quedada.isLateCancel && quedada.status === 'cancelled' && (
          <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            Cancelada con menos de 2 horas de antelación.
          </p>
        )}
        {quedada.sync === 'pending' && (
          <p className="mt-3 text-xs font-semibold text-stone-600 dark:text-stone-300" role="status">
            Pendiente de enviar
          </p>
        )}
        {quedada.sync === 'error' && (
          <p className="mt-3 flex items-center gap-2 text-xs font-semibold text-red-700 dark:text-red-400" role="alert">
            Error al enviar
            <button type="button" className="underline underline-offset-2" onClick={() => void discardFailed(quedada)}>
              Actualizar
            </button>
          </p>
        )}
        {actions.includes('confirm') && (ownAnswer === null || ownAnswer === undefined) && (
          <fieldset className="mt-3 rounded-xl bg-stone-50 p-3 dark:bg-white/5">
            <legend className="float-left w-full text-sm font-semibold text-stone-900 dark:text-white">
              ¿Entrenasteis juntos?
            </legend>
            <div className="clear-both flex gap-2 pt-2">
              <Button size="sm" onClick={() => act({ action: 'confirm', trained: true })}>
                Sí
              </Button>
              <Button size="sm" variant="secondary" onClick={() => act({ action: 'confirm', trained: false })}>
                No
              </Button>
            </div>
          </fieldset>
        )}
        {ownAnswer !== null && ownAnswer !== undefined && quedada.status === 'accepted' && (
          <p className="mt-3 text-xs text-stone-600 dark:text-stone-300">
            Has respondido. Falta la respuesta de {otherName}.
          </p>
        )}
        <div className="mt-3 flex flex-wrap gap-2">
          {actions.includes('accept') && (
            <Button size="sm" onClick={() => act({ action: 'accept' })}>
              Aceptar
            </Button>
          )}
          {actions.includes('decline') && (
            <Button size="sm" variant="secondary" onClick={() => act({ action: 'decline' })}>
              Rechazar
            </Button>
          )}
          {actions.includes('counter') && (
            <Button size="sm" variant="secondary" onClick={() => setIsCounterOpen(true)}>
              Proponer otra hora
            </Button>
          )}
          {quedada.status === 'accepted' && quedada.sync === 'synced' && endOf(quedada) > Date.now() && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void downloadCalendar(quedada)}
              iconStart={<CalendarIcon className="size-4" />}
            >
              Añadir al calendario
            </Button>
          )}
          {actions.includes('cancel') && (
            <Button size="sm" variant="ghost" onClick={() => act({ action: 'cancel' })}>
              Cancelar
            </Button>
          )}
        </div>
      </article>
      {isCounterOpen && (
        <QuedadaForm
          mode="counter"
          conversationId={quedada.conversationId}
          initial={quedada}
          onClose={() => setIsCounterOpen(false)}
          onSubmit={(values) => {
            setIsCounterOpen(false);
            act({ action: 'counter', startsAt: values.startsAt, durationMin: values.durationMin });
          }}
        />
      )}
    </div>
  );
}
