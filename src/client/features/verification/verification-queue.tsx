import { useCallback, useEffect, useId, useState } from 'react';
import { POSE_INSTRUCTIONS, posePictureUrl } from '#shared/verification/verification-poses';
import {
  REJECTION_REASON_LABELS,
  REJECTION_REASONS,
  REJECTION_NOTE_MAX,
  type RejectionReason,
  type VerificationQueueItem,
} from '#shared/verification/verification-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon, CheckCircleIcon } from '../../ui/icons.tsx';
import { photoSrc } from '../../ui/photo-url.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toast-store.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { verificationQueueApi } from './verification-api.ts';

type Queue =
  | { status: 'loading' }
  | { status: 'ready'; items: VerificationQueueItem[] }
  | { status: 'error'; message: string };

const CARD = 'rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8';
const dateFormat = new Intl.DateTimeFormat('es-ES', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Europe/Madrid',
});

function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.message ? error.message : fallback;
}

/** The selfie, fetched with the token (an <img> cannot send it) and shown from a blob URL. */
function Selfie({ item }: { item: VerificationQueueItem }) {
  const [source, setSource] = useState<{ url: string } | { error: string } | null>(null);
  useEffect(() => {
    if (!item.hasSelfie) return;
    let url: string | undefined;
    let isCancelled = false;
    verificationQueueApi
      .selfie(item.id)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        if (isCancelled) URL.revokeObjectURL(url);
        else setSource({ url });
      })
      .catch(
        (error: unknown) => !isCancelled && setSource({ error: errorText(error, 'No se pudo cargar el selfie.') }),
      );
    return () => {
      isCancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [item.id, item.hasSelfie]);

  const frame = 'aspect-[3/4] w-40 rounded-2xl bg-stone-100 object-cover ring-1 ring-stone-900/10 dark:bg-stone-800';
  if (!item.hasSelfie) return null;
  if (!source)
    return (
      <div className={cx(frame, 'grid place-items-center')}>
        <Spinner size="sm" label="Cargando selfie" />
      </div>
    );
  if ('error' in source)
    return <p className={cx(frame, 'grid place-items-center p-3 text-center text-sm')}>{source.error}</p>;
  return <img src={source.url} alt={`Selfie de ${item.name}`} className={frame} />;
}

function RejectForm({
  onReject,
  isBusy,
}: {
  onReject: (reason: RejectionReason, note: string) => void;
  isBusy: boolean;
}) {
  const [reason, setReason] = useState<RejectionReason>('pose');
  const [note, setNote] = useState('');
  const noteId = useId();
  const isNoteMissing = reason === 'other' && note.trim().length === 0;
  return (
    <form
      className="flex flex-col gap-3 rounded-2xl bg-stone-50 p-4 dark:bg-stone-800/60"
      onSubmit={(event) => {
        event.preventDefault();
        if (!isNoteMissing) onReject(reason, note);
      }}
    >
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1 text-sm font-semibold">Motivo del rechazo (la persona lo leerá)</legend>
        {REJECTION_REASONS.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="reason"
              value={value}
              checked={reason === value}
              onChange={() => setReason(value)}
              className="accent-brand-700"
            />
            {REJECTION_REASON_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={noteId} className="text-sm font-semibold">
        {reason === 'other' ? 'Explicación' : 'Nota para la persona (opcional)'}
      </label>
      <textarea
        id={noteId}
        value={note}
        maxLength={REJECTION_NOTE_MAX}
        onChange={(event) => setNote(event.target.value)}
        rows={2}
        className="rounded-xl border-0 p-2.5 text-sm ring-1 ring-inset ring-stone-300 dark:bg-stone-900 dark:ring-stone-600"
      />
      <Button type="submit" variant="danger" isLoading={isBusy} disabled={isNoteMissing} className="self-start">
        Rechazar solicitud
      </Button>
    </form>
  );
}

function RequestCard({ item, onDone }: { item: VerificationQueueItem; onDone: (id: string) => void }) {
  const [isRejecting, setIsRejecting] = useState(false);
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const approved = new Set(item.approvedPhotoKeys);
  const act = async (kind: 'approve' | 'reject', run: () => Promise<{ message: string }>) => {
    setBusy(kind);
    setProblem(null);
    try {
      const answer = await run();
      toast.success(answer.message);
      onDone(item.id);
    } catch (error) {
      setProblem(errorText(error, 'No se pudo guardar la decisión. Inténtalo de nuevo.'));
    } finally {
      setBusy(null);
    }
  };
  const titleId = useId();
  return (
    <article aria-labelledby={titleId} className={cx(CARD, 'flex flex-col gap-4')}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-lg font-bold text-stone-900 dark:text-white">
          {item.age === null ? item.name : `${item.name}, ${item.age}`}
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {item.kind === 'recheck' ? 'Revisión de fotos nuevas' : 'Selfie con pose'} ·{' '}
          {dateFormat.format(new Date(item.createdAt))}
        </p>
      </header>
      <div className="flex flex-wrap items-start gap-4">
        {item.pose && (
          <figure className="flex w-40 flex-col gap-1.5">
            <img src={posePictureUrl(item.pose)} alt="" className="size-40 rounded-2xl" />
            <figcaption className="text-xs text-stone-700 dark:text-stone-300">
              <strong>Pose pedida:</strong> {POSE_INSTRUCTIONS[item.pose]}
            </figcaption>
          </figure>
        )}
        <Selfie item={item} />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <p className="text-sm font-semibold">Fotos del perfil</p>
          <ul className="flex flex-wrap gap-2">
            {item.photoKeys.map((key, index) => (
              <li key={key} className="flex flex-col items-center gap-1">
                <img
                  src={photoSrc(key, { thumbnail: true })}
                  alt={`Foto ${index + 1} del perfil de ${item.name}`}
                  className="size-28 rounded-xl object-cover ring-1 ring-stone-900/10"
                />
                {item.kind === 'recheck' && (
                  <span
                    className={cx(
                      'rounded-full px-2 py-0.5 text-xs font-bold',
                      approved.has(key)
                        ? 'bg-emerald-50 text-emerald-800 dark:bg-emerald-500/12 dark:text-emerald-300'
                        : 'bg-amber-50 text-amber-900 dark:bg-amber-500/12 dark:text-amber-200',
                    )}
                  >
                    {approved.has(key) ? 'Aprobada antes' : 'Nueva'}
                  </span>
                )}
              </li>
            ))}
          </ul>
          {item.photoKeys.length === 0 && <p className="text-sm">El perfil no tiene fotos.</p>}
        </div>
      </div>
      {problem && (
        <p role="alert" className="flex gap-2 text-sm font-medium text-red-800 dark:text-red-300">
          <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          iconStart={<CheckCircleIcon className="size-5" />}
          isLoading={busy === 'approve'}
          disabled={busy !== null || item.photoKeys.length === 0}
          onClick={() => void act('approve', () => verificationQueueApi.approve(item.id, item.photoKeys))}
        >
          Aprobar
        </Button>
        <Button
          variant="secondary"
          disabled={busy !== null}
          onClick={() => setIsRejecting((value) => !value)}
          aria-expanded={isRejecting}
        >
          Rechazar...
        </Button>
      </div>
      {isRejecting && (
        <RejectForm
          isBusy={busy === 'reject'}
          onReject={(reason, note) =>
            void act('reject', () =>
              verificationQueueApi.reject(item.id, { reason, ...(note.trim() ? { note: note.trim() } : {}) }),
            )
          }
        />
      )}
    </article>
  );
}

/**
 * `/moderacion/verificaciones`: the verification requests waiting, oldest first. The moderator
 * compares the selfie with the pose asked and the profile's photos, then approves or rejects with
 * a reason the person reads (docs/decisions/0034).
 */
export function VerificationQueue() {
  usePageTitle('Verificaciones');
  const [queue, setQueue] = useState<Queue>({ status: 'loading' });
  const load = useCallback(async () => {
    try {
      const answer = await verificationQueueApi.list();
      setQueue({ status: 'ready', items: answer.requests });
    } catch (error) {
      setQueue({ status: 'error', message: errorText(error, 'No se pudieron cargar las solicitudes.') });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="verification-queue-title" className="flex flex-col gap-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1
            id="verification-queue-title"
            className="text-2xl font-extrabold tracking-tight text-stone-900 dark:text-white"
          >
            Verificaciones
          </h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Compara el selfie con la pose pedida y con las fotos del perfil. El selfie se borra al decidir.
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={() => void load()}>
          Actualizar
        </Button>
      </header>
      {queue.status === 'loading' && <Spinner label="Cargando solicitudes" />}
      {queue.status === 'error' && (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
          {queue.message}
        </p>
      )}
      {queue.status === 'ready' && queue.items.length === 0 && (
        <p className={cx(CARD, 'text-center text-sm')}>No hay solicitudes de verificación pendientes.</p>
      )}
      {queue.status === 'ready' &&
        queue.items.map((item) => (
          <RequestCard
            key={item.id}
            item={item}
            onDone={(id) =>
              setQueue((current) =>
                current.status === 'ready'
                  ? { status: 'ready', items: current.items.filter((entry) => entry.id !== id) }
                  : current,
              )
            }
          />
        ))}
    </section>
  );
}
