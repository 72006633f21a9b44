import { useEffect, useState } from 'react';
import type { StoredQuedada, StoredShare } from '../../services/local-db.ts';
import { currentDb } from '../../services/local-db.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { buttonClasses } from '../../ui/button.tsx';
import { toast } from '../../ui/toast-store.ts';
import { answerCheckIn, readShares, refreshShares, revokeShare, shareQuedada, shareUrl } from './share-store.ts';

const NONE: StoredShare[] = [];

/** The check-in choices, minutes after the start (null: no check-in). */
const CHECK_IN_CHOICES = [
  { label: 'Sin aviso «¿Todo bien?»', offset: null },
  { label: '30 minutos después de empezar', offset: 30 },
  { label: 'Al terminar', offset: 'end' },
  { label: '1 hora después de terminar', offset: 'end+60' },
] as const;

function checkInTime(quedada: StoredQuedada, offset: (typeof CHECK_IN_CHOICES)[number]['offset']): string | null {
  if (offset === null) return null;
  const start = Date.parse(quedada.startsAt);
  const end = start + quedada.durationMin * 60_000;
  const at = offset === 'end' ? end : offset === 'end+60' ? end + 3600_000 : start + offset * 60_000;
  return new Date(Math.max(at, Date.now() + 60_000)).toISOString();
}

const timeText = (iso: string) =>
  new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Madrid' }).format(
    new Date(iso),
  );

/**
 * «Compartir con alguien de confianza» (issue #35): on an accepted quedada of «Próximos entrenos».
 * Nothing is shared until the person asks; the link can be copied at once (even offline) and
 * revoked; the «¿Todo bien?» answer is given here.
 */
export function SharePanel({ quedada }: { quedada: StoredQuedada }) {
  const [isOpen, setIsOpen] = useState(false);
  const [choice, setChoice] = useState(1);
  const shares = useLiveQuery(`quedada-shares:${quedada._id}`, (db) => readShares(db, quedada._id), NONE).filter(
    (stored) => !stored.share?.revokedAt,
  );
  useEffect(() => {
    const db = currentDb();
    if (db && quedada._id) void refreshShares(db, quedada._id);
  }, [quedada._id]);
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

  return (
    <div className="mt-3 border-t border-stone-900/6 pt-3 dark:border-white/8" data-testid="share-panel">
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
          <p className="text-stone-700 dark:text-stone-200">
            Quien tenga el enlace verá con quién entrenas (nombre, foto y verificación), dónde y cuándo, hasta que
            termine el entreno. Tu compañero recibirá un aviso de que lo has compartido.
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
                void shareQuedada(quedada._id, checkInTime(quedada, offset)).then((stored) => {
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
      ) : (
        <button
          type="button"
          className={buttonClasses({ size: 'sm', variant: 'secondary' })}
          onClick={() => setIsOpen(true)}
        >
          Compartir con alguien de confianza
        </button>
      )}
    </div>
  );
}
