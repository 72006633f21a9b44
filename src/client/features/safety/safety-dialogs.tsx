import { type FormEvent, type ReactNode, useId, useState } from 'react';
import {
  REPORT_DETAILS_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
} from '#shared/safety/safety-schemas';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { AlertCircleIcon } from '../../ui/icons.tsx';
import { type ReportTarget, type SafetyTarget, safetyActions } from './safety-actions.ts';

const REASON_HINTS: Record<ReportReason, string> = {
  fake_profile: 'Fotos o datos que no son suyos, o se hace pasar por otra persona.',
  harassment: 'Insultos, amenazas o insistencia cuando ya has dicho que no.',
  spam: 'Publicidad, enlaces, venta de productos o servicios.',
  inappropriate: 'Fotos o mensajes sexuales, violentos u ofensivos.',
  underage: 'Crees que tiene menos de 18 años.',
  other: 'Cualquier otro motivo que nos ayude a mantener Entreno seguro.',
};

function ErrorLine({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="flex items-start gap-2 text-sm font-medium text-red-700 dark:text-red-400">
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}

/** "¿Bloquear a X?": what a block does, then Cancelar / Bloquear. */
export function BlockDialog({
  target,
  open,
  onClose,
  onBlocked,
}: {
  target: SafetyTarget;
  open: boolean;
  onClose: () => void;
  onBlocked: () => void;
}) {
  const [isBlocking, setIsBlocking] = useState(false);
  const block = async () => {
    setIsBlocking(true);
    const outcome = await safetyActions.block(target);
    setIsBlocking(false);
    if (outcome.status === 'done') onBlocked();
  };
  return (
    <Dialog
      open={open}
      onClose={() => !isBlocking && onClose()}
      title={`¿Bloquear a ${target.name}?`}
      description="No volveréis a veros en Conectar ni en tus matches, vuestra conversación terminará y no podrá escribirte. No le avisaremos."
      size="sm"
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isBlocking}>
            Cancelar
          </Button>
          <Button variant="danger" isLoading={isBlocking} loadingText="Bloqueando..." onClick={() => void block()}>
            Bloquear
          </Button>
        </>
      }
    />
  );
}

/**
 * "Denunciar a X": one of the six reasons, optional details, and "block too". The same sheet
 * reports an open session or someone in a group chat: the host hands in its title and what the
 * report is about (`subjectFields`, above the reasons: a group's member and message).
 */
export function ReportDialog({
  target,
  open,
  onClose,
  onReported,
  title = `Denunciar a ${target.name}`,
  description = 'Tu denuncia es anónima: no le diremos quién la ha hecho. La revisaremos lo antes posible.',
  subjectFields,
  missingSubject,
}: {
  target: ReportTarget;
  open: boolean;
  onClose: () => void;
  /** After the report was stored (or queued); `isBlocked` when the person was blocked with it. */
  onReported: (isBlocked: boolean) => void;
  title?: string;
  description?: string;
  subjectFields?: ReactNode;
  /** Shown instead of sending while the target names nobody yet (a group's member not chosen). */
  missingSubject?: string;
}) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(false);
  const [isSending, setIsSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = { details: useId(), counter: useId(), block: useId(), form: useId() };

  const reset = () => {
    setReason(null);
    setDetails('');
    setAlsoBlock(false);
    setError(null);
  };
  const close = () => {
    if (isSending) return;
    reset();
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (missingSubject && !target.userId && !target.openSessionId) {
      setError(missingSubject);
      return;
    }
    if (!reason) {
      setError('Elige un motivo');
      return;
    }
    setIsSending(true);
    setError(null);
    const outcome = await safetyActions.report(target, { reason, details, alsoBlock });
    setIsSending(false);
    if (outcome.status === 'failed') {
      setError(outcome.message);
      return;
    }
    const isBlocked = alsoBlock;
    reset();
    onReported(isBlocked);
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      description={description}
      size="lg"
      actions={
        <>
          <Button variant="secondary" onClick={close} disabled={isSending}>
            Cancelar
          </Button>
          <Button type="submit" form={ids.form} variant="danger" isLoading={isSending} loadingText="Enviando...">
            Enviar denuncia
          </Button>
        </>
      }
    >
      {/* The form scrolls inside the dialog on short screens, so the title and the buttons stay in view. */}
      <form
        id={ids.form}
        onSubmit={(event) => void submit(event)}
        className="-mx-1 flex max-h-[calc(100dvh-17rem)] flex-col gap-4 overflow-y-auto overscroll-contain px-1 pb-1 sm:max-h-[calc(100dvh-15rem)]"
        noValidate
      >
        {subjectFields}
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold text-stone-900 dark:text-stone-100">Motivo</legend>
          {REPORT_REASONS.map((value) => (
            <label
              key={value}
              className={cx(
                'flex cursor-pointer items-start gap-2.5 rounded-xl px-3 py-2 ring-1 ring-inset transition-colors motion-reduce:transition-none',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 dark:has-[:focus-visible]:outline-brand-400',
                reason === value
                  ? 'bg-red-50 ring-red-300 dark:bg-red-500/10 dark:ring-red-400/40'
                  : 'ring-stone-200 hover:bg-stone-50 dark:ring-stone-700 dark:hover:bg-white/4',
              )}
            >
              <input
                type="radio"
                name="report-reason"
                value={value}
                checked={reason === value}
                onChange={() => {
                  setReason(value);
                  setError(null);
                }}
                className="mt-0.5 size-4 shrink-0 accent-red-700 focus:outline-none dark:accent-red-500"
              />
              <span className="flex flex-col">
                <span className="text-[0.9375rem] font-semibold text-stone-900 dark:text-stone-50">
                  {REPORT_REASON_LABELS[value]}
                </span>
                <span className="text-[0.8125rem] leading-snug text-stone-600 dark:text-stone-400">
                  {REASON_HINTS[value]}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.details} className="text-sm font-medium text-stone-800 dark:text-stone-200">
            Detalles (opcional)
          </label>
          <textarea
            id={ids.details}
            value={details}
            maxLength={REPORT_DETAILS_MAX}
            rows={2}
            aria-describedby={ids.counter}
            placeholder="Cuéntanos qué ha pasado"
            onChange={(event) => setDetails(event.target.value)}
            className="min-h-16 w-full resize-y rounded-xl bg-white px-3.5 py-2.5 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 placeholder:text-stone-500 focus:outline-none focus:ring-2 focus:ring-brand-600 dark:bg-stone-900 dark:text-white dark:ring-stone-700 dark:placeholder:text-stone-400 dark:focus:ring-brand-400"
          />
          <p id={ids.counter} className="self-end text-xs tabular-nums text-stone-600 dark:text-stone-400">
            {`${details.length}/${REPORT_DETAILS_MAX}`}
          </p>
        </div>
        {target.name && (
          <label htmlFor={ids.block} className="flex cursor-pointer items-start gap-3">
            <input
              id={ids.block}
              type="checkbox"
              checked={alsoBlock}
              onChange={(event) => setAlsoBlock(event.target.checked)}
              className="mt-0.5 size-4 shrink-0 accent-red-700 dark:accent-red-500"
            />
            <span className="text-[0.9375rem] text-stone-800 dark:text-stone-200">
              {`Bloquear también a ${target.name}`}
            </span>
          </label>
        )}
        <ErrorLine message={error} />
      </form>
    </Dialog>
  );
}
