import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import {
  AUDIT_ACTION_LABELS,
  type ReportDetail as Detail,
  REPORT_SUBJECT_LABELS,
  RESTRICTION_KIND_LABELS,
  type RestrictionSummary,
} from '#shared/moderation/moderation-schemas';
import { REPORT_REASON_LABELS } from '#shared/safety/safety-schemas';
import { Button } from '../../ui/button.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { photoSrc } from '../../ui/photo-url.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { moderationApi } from './moderation-api.ts';
import { CONSOLE_CARD, CONSOLE_H2, formatModerationDate } from './moderation-format.ts';
import { ErrorText, failureMessage, NoteField } from './note-field.tsx';
import { ReportActions } from './report-actions.tsx';
import { ReportedSubject } from './reported-subject.tsx';

const CARD = CONSOLE_CARD;
const H2 = CONSOLE_H2;

type State = { status: 'loading' } | { status: 'ready'; detail: Detail } | { status: 'error'; message: string };

function LiftForm({ restriction, onLifted }: { restriction: RestrictionSummary; onLifted(): void }) {
  const [isOpen, setIsOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  if (!isOpen) {
    return (
      <Button size="sm" variant="secondary" onClick={() => setIsOpen(true)}>
        Levantar
      </Button>
    );
  }
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        setIsSending(true);
        moderationApi
          .lift(restriction.id, { note })
          .then(onLifted)
          .catch((failure: unknown) => setError(failureMessage(failure, 'No se ha podido levantar')))
          .finally(() => setIsSending(false));
      }}
    >
      <NoteField label="Por qué se levanta" value={note} onChange={setNote} isRequired />
      <ErrorText message={error} />
      <Button type="submit" size="sm" isLoading={isSending} disabled={!note.trim()}>
        Levantar la sanción
      </Button>
    </form>
  );
}

/** One report with its evidence and the person's history, and the decision form while it is open. */
export function ReportDetail({ reportId }: { reportId: string }) {
  usePageTitle('Denuncia');
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [done, setDone] = useState<string | null>(null);
  const load = useCallback(() => {
    moderationApi
      .report(reportId)
      .then((detail) => setState({ status: 'ready', detail }))
      .catch((error: unknown) =>
        setState({ status: 'error', message: failureMessage(error, 'No se pudo cargar la denuncia') }),
      );
  }, [reportId]);
  useEffect(load, [load]);

  if (state.status === 'loading') return <Spinner label="Cargando la denuncia" />;
  if (state.status === 'error') return <ErrorText message={state.message} />;
  const { report, reported, messages, earlierReports, restrictions, audit } = state.detail;
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/moderacion" className={textLinkClasses}>
          Volver a la cola
        </Link>
      </p>
      <h1 className="text-2xl font-bold text-stone-900 dark:text-stone-50">
        {`Denuncia por ${REPORT_REASON_LABELS[report.reason].toLowerCase()}`}
      </h1>
      <div role="status" className="empty:hidden">
        {done && (
          <p className="rounded-xl bg-brand-50 px-3 py-2 text-brand-900 dark:bg-brand-500/10 dark:text-brand-100">
            {done}
          </p>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="persona" className={CARD}>
          <h2 id="persona" className={H2}>
            Persona denunciada
          </h2>
          {reported ? (
            <div className="mt-3 flex gap-4">
              <img
                src={photoSrc(reported.photos[0] ?? null, { thumbnail: true })}
                alt={`Foto de ${reported.name}`}
                className="size-24 shrink-0 rounded-xl object-cover"
              />
              <div className="flex min-w-0 flex-col gap-1 text-sm text-stone-700 dark:text-stone-200">
                <p className="text-base font-semibold text-stone-900 dark:text-stone-50">
                  {reported.age ? `${reported.name}, ${reported.age}` : reported.name}
                </p>
                <p className="break-all">{reported.email}</p>
                {reported.city && <p>{reported.city}</p>}
                <p>
                  {reported.isDeleted
                    ? 'Cuenta eliminada'
                    : reported.isInDecks
                      ? 'Visible en Conectar'
                      : 'Fuera de Conectar'}
                </p>
                {reported.bio && (
                  <p className="whitespace-pre-line text-stone-600 dark:text-stone-300">{reported.bio}</p>
                )}
              </div>
            </div>
          ) : (
            <p className="mt-2 text-stone-600 dark:text-stone-300">La cuenta ya no existe.</p>
          )}
        </section>
        <section aria-labelledby="denuncia" className={CARD}>
          <h2 id="denuncia" className={H2}>
            La denuncia
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-stone-700 dark:text-stone-200">
            <dt className="font-medium">Sobre</dt>
            <dd>{REPORT_SUBJECT_LABELS[report.subject]}</dd>
            <dt className="font-medium">Motivo</dt>
            <dd>{REPORT_REASON_LABELS[report.reason]}</dd>
            <dt className="font-medium">Cuándo</dt>
            <dd>{formatModerationDate(report.createdAt)}</dd>
            <dt className="font-medium">Quién</dt>
            <dd>{report.reporter?.name ?? 'Cuenta eliminada'}</dd>
            <dt className="font-medium">Detalles</dt>
            <dd className="whitespace-pre-line">{report.details ?? 'Sin detalles'}</dd>
          </dl>
        </section>
      </div>
      <ReportedSubject detail={state.detail} onChanged={load} />
      {report.conversationId && (
        <section aria-labelledby="mensajes" className={CARD}>
          <h2 id="mensajes" className={H2}>
            Mensajes de la conversación denunciada
          </h2>
          {messages.length === 0 ? (
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">
              No hay mensajes hasta el momento de la denuncia.
            </p>
          ) : (
            <ol className="mt-3 flex flex-col gap-2">
              {messages.map((message) => (
                <li key={message.id} className="text-sm">
                  <span className="font-semibold text-stone-900 dark:text-stone-50">{message.senderName}</span>{' '}
                  <time dateTime={message.timestamp} className="text-stone-600 dark:text-stone-400">
                    {formatModerationDate(message.timestamp)}
                  </time>
                  <p className="whitespace-pre-line text-stone-800 dark:text-stone-100">{message.text}</p>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
      {report.status === 'open' && !done ? (
        <section className={CARD}>
          <ReportActions
            reportId={report.id}
            defaultReason={report.reason}
            onDone={(message) => {
              setDone(message);
              load();
            }}
          />
        </section>
      ) : (
        <p className="text-stone-700 dark:text-stone-200">
          Esta denuncia está resuelta.{' '}
          <Button variant="ghost" size="sm" onClick={() => void navigate({ to: '/moderacion' })}>
            Ir a la cola
          </Button>
        </p>
      )}
      <section aria-labelledby="historial" className={CARD}>
        <h2 id="historial" className={H2}>
          Historial de la persona
        </h2>
        <h3 className="mt-3 font-semibold text-stone-800 dark:text-stone-100">Sanciones</h3>
        {restrictions.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-300">Ninguna.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-2">
            {restrictions.map((restriction) => (
              <li key={restriction.id} className="flex flex-col gap-1 text-sm text-stone-700 dark:text-stone-200">
                <span>
                  {`${RESTRICTION_KIND_LABELS[restriction.kind]} · ${formatModerationDate(restriction.createdAt)}`}
                  {restriction.endsAt && ` · hasta ${formatModerationDate(restriction.endsAt)}`}
                  {restriction.isLive ? ' · en vigor' : ' · terminada'}
                  {restriction.appeal &&
                    ` · apelada (${restriction.appeal.status === 'open' ? 'pendiente' : restriction.appeal.status === 'granted' ? 'aceptada' : 'rechazada'})`}
                </span>
                {restriction.isLive && restriction.kind !== 'warning' && (
                  <LiftForm restriction={restriction} onLifted={load} />
                )}
              </li>
            ))}
          </ul>
        )}
        <h3 className="mt-3 font-semibold text-stone-800 dark:text-stone-100">Otras denuncias</h3>
        {earlierReports.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-300">Ninguna.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1 text-sm text-stone-700 dark:text-stone-200">
            {earlierReports.map((earlier) => (
              <li key={earlier.id}>
                {`${REPORT_REASON_LABELS[earlier.reason]} · ${formatModerationDate(earlier.createdAt)} · ${earlier.status === 'open' ? 'abierta' : 'resuelta'}`}
              </li>
            ))}
          </ul>
        )}
        <h3 className="mt-3 font-semibold text-stone-800 dark:text-stone-100">Acciones registradas</h3>
        {audit.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-300">Ninguna.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1 text-sm text-stone-700 dark:text-stone-200">
            {audit.map((entry) => (
              <li
                key={entry.id}
              >{`${formatModerationDate(entry.createdAt)} · ${AUDIT_ACTION_LABELS[entry.action] ?? entry.action} · ${entry.moderator}: ${entry.reason}`}</li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
