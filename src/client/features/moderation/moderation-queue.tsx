import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import {
  type AppealQueueItem,
  type ModerationQueue as Queue,
  RESTRICTION_KIND_LABELS,
  REPORT_SUBJECT_LABELS,
} from '#shared/moderation/moderation-schemas';
import { REPORT_REASON_LABELS } from '#shared/safety/safety-schemas';
import { Button } from '../../ui/button.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { moderationApi } from './moderation-api.ts';
import { CONSOLE_CARD, formatModerationDate } from './moderation-format.ts';
import { ErrorText, failureMessage, NoteField } from './note-field.tsx';

type State = { status: 'loading' } | { status: 'ready'; queue: Queue } | { status: 'error'; message: string };

const CARD = CONSOLE_CARD;

/** One appeal with its decision: keep or lift the restriction, with the why for the audit log. */
function AppealCard({ appeal, onDecided }: { appeal: AppealQueueItem; onDecided(): void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'grant' | 'uphold' | null>(null);
  const decide = (decision: 'grant' | 'uphold') => {
    setBusy(decision);
    setError(null);
    moderationApi
      .decideAppeal(appeal.id, { decision, note })
      .then(onDecided)
      .catch((failure: unknown) => setError(failureMessage(failure, 'No se ha podido resolver la apelación')))
      .finally(() => setBusy(null));
  };
  const headingId = `apelacion-${appeal.id}`;
  return (
    <li className={CARD}>
      <article aria-labelledby={headingId} className="flex flex-col gap-3">
        <h3 id={headingId} className="font-semibold text-stone-900 dark:text-stone-50">
          {`Apelación de ${appeal.person.name}`}
        </h3>
        <p className="text-sm text-stone-600 dark:text-stone-300">
          {`${RESTRICTION_KIND_LABELS[appeal.restriction.kind]} · ${formatModerationDate(appeal.createdAt)}`}
          {appeal.restriction.endsAt && ` · hasta ${formatModerationDate(appeal.restriction.endsAt)}`}
        </p>
        <blockquote className="whitespace-pre-line border-l-4 border-stone-300 pl-3 text-stone-800 dark:border-stone-600 dark:text-stone-100">
          {appeal.text}
        </blockquote>
        <NoteField label="Motivo de la decisión (queda en el registro)" value={note} onChange={setNote} isRequired />
        <ErrorText message={error} />
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            isLoading={busy === 'uphold'}
            disabled={busy !== null || !note.trim()}
            onClick={() => decide('uphold')}
          >
            Mantener la sanción
          </Button>
          <Button isLoading={busy === 'grant'} disabled={busy !== null || !note.trim()} onClick={() => decide('grant')}>
            Levantar la sanción
          </Button>
        </div>
      </article>
    </li>
  );
}

/** The queue: open reports and appeals, oldest first. */
export function ModerationQueue() {
  usePageTitle('Moderación');
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(() => {
    moderationApi
      .queue()
      .then((queue) => setState({ status: 'ready', queue }))
      .catch((error: unknown) =>
        setState({ status: 'error', message: failureMessage(error, 'No se pudo cargar la cola') }),
      );
  }, []);
  useEffect(load, [load]);

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="denuncias-titulo" className="flex flex-col gap-3">
        <h1 id="denuncias-titulo" className="text-2xl font-bold text-stone-900 dark:text-stone-50">
          Denuncias pendientes
        </h1>
        {state.status === 'loading' && <Spinner label="Cargando la cola" />}
        {state.status === 'error' && <ErrorText message={state.message} />}
        {state.status === 'ready' && state.queue.reports.length === 0 && (
          <p className="text-stone-600 dark:text-stone-300">No hay denuncias pendientes.</p>
        )}
        {state.status === 'ready' && state.queue.reports.length > 0 && (
          <ul className="flex flex-col gap-2">
            {state.queue.reports.map((report) => (
              <li key={report.id} className={CARD}>
                <Link
                  to="/moderacion/denuncias/$reportId"
                  params={{ reportId: report.id }}
                  className={`${textLinkClasses} text-base`}
                >
                  {`${REPORT_REASON_LABELS[report.reason]}: ${report.reported?.name ?? 'cuenta eliminada'}`}
                </Link>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-300">
                  {`${formatModerationDate(report.createdAt)} · ${report.openReportsAboutPerson === 1 ? '1 denuncia abierta' : `${report.openReportsAboutPerson} denuncias abiertas`}`}
                  {report.subject !== 'person' && ` · ${REPORT_SUBJECT_LABELS[report.subject].toLowerCase()}`}
                </p>
                {report.isHeld && (
                  <p className="mt-1 text-sm font-medium text-amber-800 dark:text-amber-300">
                    Retirado de Conectar hasta que lo revises (tres denuncias en 24 horas)
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="apelaciones-titulo" className="flex flex-col gap-3">
        <h2 id="apelaciones-titulo" className="text-xl font-bold text-stone-900 dark:text-stone-50">
          Apelaciones
        </h2>
        {state.status === 'ready' && state.queue.appeals.length === 0 && (
          <p className="text-stone-600 dark:text-stone-300">No hay apelaciones pendientes.</p>
        )}
        {state.status === 'ready' && state.queue.appeals.length > 0 && (
          <ul className="flex flex-col gap-3">
            {state.queue.appeals.map((appeal) => (
              <AppealCard key={appeal.id} appeal={appeal} onDecided={load} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
