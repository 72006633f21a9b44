import { useEffect, useState } from 'react';
import type { StoredShare } from '../../services/local-db.ts';
import { currentDb } from '../../services/local-db.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { buttonClasses } from '../../ui/button.tsx';
import { toast } from '../../ui/toast-store.ts';
import {
  answerCheckIn,
  createShare,
  readShares,
  refreshShares,
  revokeShare,
  type ShareTarget,
  shareUrl,
} from './share-store.ts';

const NONE: StoredShare[] = [];

/** The check-in choices, minutes after the start (null: no check-in). */
const CHECK_IN_CHOICES = [
  { label: 'Sin aviso «¿Todo bien?»', offset: null },
  { label: '30 minutos después de empezar', offset: 30 },
  { label: 'Al terminar', offset: 'end' },
  { label: '1 hora después de terminar', offset: 'end+60' },
] as const;

function checkInTime(target: ShareTarget, offset: (typeof CHECK_IN_CHOICES)[number]['offset']): string | null {
  if (offset === null) return null;
  const start = Date.parse(target.startsAt);
  const end = start + target.durationMin * 60_000;
  const at = offset === 'end' ? end : offset === 'end+60' ? end + 3600_000 : start + offset * 60_000;
  return new Date(Math.max(at, Date.now() + 60_000)).toISOString();
}

const timeText = (iso: string) =>
  new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Madrid' }).format(
    new Date(iso),
  );

/** Who else learns that it was shared, in the sheet's words. */
const TOLD: Record<ShareTarget['kind'], { shown: string; told: string }> = {
  quedada: { shown: 'con quién entrenas', told: 'Tu compañero recibirá un aviso de que lo has compartido.' },
  openSession: {
    shown: 'quién organiza y quién tiene plaza',
    told: 'Los demás del entreno recibirán un aviso de que lo has compartido (nunca el enlace).',
  },
};

/**
 * «Compartir con alguien de confianza» (issue #35): on an accepted quedada of «Próximos entrenos»
 * and on an open session the person is in. Nothing is shared until the person asks; the link can
 * be copied at once (even offline) and revoked; the «¿Todo bien?» answer is given here.
 */
export function SharePanel({
  target,
  canCreate = true,
  isCard = false,
}: {
  target: ShareTarget;
  /** false: no new link (the session is over or cancelled), the existing ones still shown. */
  canCreate?: boolean;
  /** A card of its own (an open session's screen) rather than a part of a quedada's card. */
  isCard?: boolean;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [choice, setChoice] = useState(1);
  const shares = useLiveQuery(`quedada-shares:${target.id}`, (db) => readShares(db, target.id), NONE).filter(
    (stored) => !stored.share?.revokedAt,
  );
  const { kind, id } = target;
  useEffect(() => {
    const db = currentDb();
    if (db && id) void refreshShares(db, { kind, id });
  }, [kind, id]);
  // The «¿Todo bien?» buttons appear when the check-in time comes, without a reload.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const copy = async (stored: StoredShare) => {
    const url = shareUrl(stored.token);
    try {
      if (navigator.share) await navigator.share({ title: 'Mi entreno', url });
      else {
        await navigator.clipboard.writeText(url);
        toast.success('Enlace copiado');
      }
    } catch {
      // Sharing cancelled: the link is still shown below.
    }
  };

  // After the end (or a cancel) no new link, but a late «¿Todo bien?» is still answered here.
  if (!canCreate && shares.length === 0) return null;
  return (
    <section
      aria-label={isCard ? 'Compartir con alguien de confianza' : undefined}
      className={
        isCard
          ? 'rounded-3xl bg-white p-4 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8'
          : 'mt-3 border-t border-stone-900/6 pt-3 dark:border-white/8'
      }
      data-testid="share-panel"
    >
      {shares.map((stored) => {
        const checkIn = stored.share?.checkIn;
        return (
          <div key={stored.key} className="mb-3 flex flex-col gap-2 text-sm text-stone-700 dark:text-stone-200">
            <p className="font-semibold">
              Compartido con alguien de confianza{stored.sync === 'pending' ? ' (pendiente de enviar)' : ''}
              {stored.sync === 'error' ? ' (no se pudo compartir)' : ''}
            </p>
            <input
              readOnly
              aria-label="Enlace para compartir"
              value={shareUrl(stored.token)}
              className="w-full rounded-xl bg-stone-100 px-3 py-2 text-xs dark:bg-white/8"
              onFocus={(event) => event.currentTarget.select()}
            />
            {stored.checkInAt ? <p>Aviso «¿Todo bien?» a las {timeText(stored.checkInAt)}</p> : null}
            {checkIn && !checkIn.answer && Date.parse(checkIn.at) <= now ? (
              <fieldset className="flex flex-wrap items-center gap-2">
                <legend className="mb-1 font-bold">¿Todo bien?</legend>
                <button
                  type="button"
                  className={buttonClasses({ size: 'sm' })}
                  onClick={() => void answerCheckIn(stored, 'ok')}
                >
                  Todo bien
                </button>
                <button
                  type="button"
                  className={buttonClasses({ size: 'sm', variant: 'secondary' })}
                  onClick={() => void answerCheckIn(stored, 'help')}
                >
                  Necesito ayuda
                </button>
              </fieldset>
            ) : null}
            {checkIn?.answer ? (
              <p>Has respondido: {checkIn.answer === 'ok' ? '«Todo bien»' : '«Necesito ayuda»'}</p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <button type="button" className={buttonClasses({ size: 'sm' })} onClick={() => void copy(stored)}>
                Copiar enlace
              </button>
              <button
                type="button"
                className={buttonClasses({ size: 'sm', variant: 'secondary' })}
                onClick={() =>
                  void revokeShare(stored).then((isDone) => {
                    if (!isDone) toast.error('Espera un momento: el enlace se está enviando.');
                  })
                }
              >
                Revocar enlace
              </button>
            </div>
          </div>
        );
      })}
      {isOpen ? (
        <div className="flex flex-col gap-2 text-sm">
          {isCard ? (
            <h2 className="text-base font-bold text-stone-900 dark:text-white">Compartir con alguien de confianza</h2>
          ) : null}
          <p className="text-stone-700 dark:text-stone-200">
            Quien tenga el enlace verá {TOLD[kind].shown} (nombre, foto y verificación), dónde y cuándo, hasta que
            termine el entreno. {TOLD[kind].told}
          </p>
          <label className="flex flex-col gap-1 font-semibold text-stone-800 dark:text-stone-100">
            Aviso «¿Todo bien?»
            <select
              value={choice}
              onChange={(event) => setChoice(Number(event.target.value))}
              className="rounded-xl bg-stone-100 px-3 py-2 font-normal dark:bg-white/8"
            >
              {CHECK_IN_CHOICES.map((option, index) => (
                <option key={option.label} value={index}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClasses({ size: 'sm' })}
              onClick={() => {
                const offset = CHECK_IN_CHOICES[choice]?.offset ?? null;
                void createShare(target, checkInTime(target, offset)).then((stored) => {
                  setIsOpen(false);
                  if (stored) void copy(stored);
                });
              }}
            >
              Crear enlace
            </button>
            <button
              type="button"
              className={buttonClasses({ size: 'sm', variant: 'secondary' })}
              onClick={() => setIsOpen(false)}
            >
              Cancelar
            </button>
          </div>
        </div>
      ) : canCreate ? (
        <button
          type="button"
          className={buttonClasses({ size: 'sm', variant: 'secondary' })}
          onClick={() => setIsOpen(true)}
        >
          Compartir con alguien de confianza
        </button>
      ) : null}
    </section>
  );
}
