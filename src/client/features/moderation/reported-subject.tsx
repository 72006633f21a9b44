import { useState } from 'react';
import type { ReportDetail } from '#shared/moderation/moderation-schemas';
import { Button } from '../../ui/button.tsx';
import { moderationApi } from './moderation-api.ts';
import { CONSOLE_CARD, CONSOLE_H2, formatModerationDate } from './moderation-format.ts';
import { ErrorText, failureMessage } from './note-field.tsx';

const CARD = CONSOLE_CARD;
const H2 = CONSOLE_H2;

const SESSION_STATUS = { open: 'Publicado', cancelled: 'Cancelado por quien lo publicó', removed: 'Retirado' } as const;

/**
 * What a report is about besides the person (docs/decisions/0056, amendment of session 17): the
 * group message as it read when reported, or the open session as it stands, which the moderator
 * may remove from here (its host and members are told; the audit log keeps it). Restricting the
 * author is the decision form below, as for any report.
 */
export function ReportedSubject({ detail, onChanged }: { detail: ReportDetail; onChanged: () => void }) {
  const { report, openSession } = detail;
  const [isRemoving, setIsRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = () => {
    if (!openSession) return;
    setIsRemoving(true);
    setError(null);
    moderationApi
      .removeOpenSession(openSession.id)
      .then(onChanged)
      .catch((failure: unknown) => setError(failureMessage(failure, 'No se ha podido retirar el entreno')))
      .finally(() => setIsRemoving(false));
  };
  return (
    <>
      {report.message && (
        <section aria-labelledby="mensaje-denunciado" className={CARD}>
          <h2 id="mensaje-denunciado" className={H2}>
            Mensaje denunciado
          </h2>
          <blockquote className="mt-2 whitespace-pre-line border-l-4 border-red-300 pl-3 text-stone-800 dark:border-red-400/60 dark:text-stone-100">
            {report.message.text ?? 'Mensaje no disponible'}
          </blockquote>
        </section>
      )}
      {openSession && (
        <section aria-labelledby="entreno-denunciado" className={CARD}>
          <h2 id="entreno-denunciado" className={H2}>
            Entreno denunciado
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-stone-700 dark:text-stone-200">
            <dt className="font-medium">Actividad</dt>
            <dd>{openSession.activity}</dd>
            <dt className="font-medium">Dónde</dt>
            <dd>
              {openSession.gymName}
              {openSession.gymAddress && ` · ${openSession.gymAddress}`}
            </dd>
            <dt className="font-medium">Cuándo</dt>
            <dd>{`${formatModerationDate(openSession.startsAt)} · ${openSession.durationMin} min`}</dd>
            <dt className="font-medium">Plazas</dt>
            <dd>{`${openSession.taken} de ${openSession.places}`}</dd>
            <dt className="font-medium">Nota</dt>
            <dd className="whitespace-pre-line">{openSession.note ?? 'Sin nota'}</dd>
            <dt className="font-medium">Estado</dt>
            <dd data-testid="reported-session-status">{SESSION_STATUS[openSession.status]}</dd>
          </dl>
          {openSession.status === 'open' && (
            <div className="mt-3 flex flex-col gap-2">
              <p className="text-sm text-stone-600 dark:text-stone-300">
                Retirarlo lo quita de las listas y cierra su chat; quien lo publicó y quienes están apuntados reciben un
                aviso.
              </p>
              <ErrorText message={error} />
              <Button variant="danger" size="sm" className="self-start" isLoading={isRemoving} onClick={remove}>
                Retirar el entreno
              </Button>
            </div>
          )}
        </section>
      )}
    </>
  );
}
