import { useId, useState } from 'react';
import {
  MODERATION_ACTION_LABELS,
  MODERATION_ACTIONS,
  type ModerationAction,
  type ResolveReportRequest,
} from '#shared/moderation/moderation-schemas';
import { REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from '#shared/safety/safety-schemas';
import { Button } from '../../ui/button.tsx';
import { moderationApi } from './moderation-api.ts';
import { ErrorText, failureMessage, NoteField } from './note-field.tsx';

const HINTS: Record<ModerationAction, string> = {
  dismiss: 'No hay motivo: se cierran las denuncias y vuelve a Conectar si estaba retirado.',
  warn: 'La persona recibe un aviso con el motivo; su cuenta sigue activa.',
  suspend: 'Se cierran sus sesiones y sus chats, sale de Conectar y no puede entrar hasta que termine.',
  ban: 'Como la suspensión, pero sin fecha de fin. Se puede levantar.',
};

const INPUT =
  'h-11 rounded-xl bg-white px-3 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 focus:outline-none focus:ring-2 ' +
  'focus:ring-brand-600 dark:bg-stone-900 dark:text-white dark:ring-stone-700 dark:focus:ring-brand-400';

/** The decision on a report: one action on the person, with the reason they read and the note for the log. */
export function ReportActions({
  reportId,
  defaultReason,
  onDone,
}: {
  reportId: string;
  defaultReason: ReportReason;
  onDone(message: string): void;
}) {
  const ids = { reason: useId(), days: useId(), actions: useId() };
  const [action, setAction] = useState<ModerationAction | null>(null);
  const [reason, setReason] = useState<ReportReason>(defaultReason);
  const [days, setDays] = useState('7');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  return (
    <form
      className="flex flex-col gap-4"
      aria-labelledby={ids.actions}
      onSubmit={(event) => {
        event.preventDefault();
        if (!action || isSending) return;
        const body: ResolveReportRequest = {
          action,
          note,
          ...(action === 'dismiss' ? {} : { reason }),
          ...(action === 'suspend' ? { days: Number(days) } : {}),
        };
        setIsSending(true);
        setError(null);
        moderationApi
          .resolve(reportId, body)
          .then((answer) => onDone(answer.message))
          .catch((failure: unknown) => setError(failureMessage(failure, 'No se ha podido aplicar la decisión')))
          .finally(() => setIsSending(false));
      }}
    >
      <h2 id={ids.actions} className="text-lg font-semibold text-stone-900 dark:text-stone-50">
        Decisión
      </h2>
      <fieldset className="grid gap-2 sm:grid-cols-2">
        <legend className="sr-only">Acción</legend>
        {MODERATION_ACTIONS.map((value) => (
          <label
            key={value}
            className="flex cursor-pointer items-start gap-3 rounded-xl p-3 ring-1 ring-stone-200 has-[:checked]:ring-2 has-[:checked]:ring-brand-600 dark:ring-white/10 dark:has-[:checked]:ring-brand-400"
          >
            <input
              type="radio"
              name="accion"
              value={value}
              checked={action === value}
              onChange={() => setAction(value)}
              className="mt-1 accent-brand-700"
            />
            <span className="flex flex-col">
              <span className="font-semibold text-stone-900 dark:text-stone-50">{MODERATION_ACTION_LABELS[value]}</span>
              <span className="text-sm text-stone-600 dark:text-stone-300">{HINTS[value]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {action !== null && action !== 'dismiss' && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.reason} className="text-sm font-medium text-stone-800 dark:text-stone-200">
            Motivo que verá la persona
          </label>
          <select
            id={ids.reason}
            value={reason}
            onChange={(event) => setReason(event.target.value as ReportReason)}
            className={INPUT}
          >
            {REPORT_REASONS.map((value) => (
              <option key={value} value={value}>
                {REPORT_REASON_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      )}
      {action === 'suspend' && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.days} className="text-sm font-medium text-stone-800 dark:text-stone-200">
            Días de suspensión
          </label>
          <input
            id={ids.days}
            type="number"
            min={1}
            max={365}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            className={`${INPUT} w-32`}
          />
        </div>
      )}
      <NoteField
        label="Por qué (queda en el registro, la persona no lo ve)"
        value={note}
        onChange={setNote}
        isRequired
      />
      <ErrorText message={error} />
      <Button
        type="submit"
        isLoading={isSending}
        disabled={!action || !note.trim()}
        variant={action === 'ban' || action === 'suspend' ? 'danger' : 'primary'}
      >
        {action ? `${MODERATION_ACTION_LABELS[action]} y cerrar las denuncias` : 'Elige una acción'}
      </Button>
    </form>
  );
}
