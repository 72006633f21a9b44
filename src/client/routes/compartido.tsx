import { useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { durationText, quedadaWhen } from '#shared/quedadas/quedada-time';
import {
  SHARE_MESSAGES,
  type SharedPerson,
  type SharedSession,
  type SharedSessionResponse,
} from '#shared/quedadas/share-schemas';
import { CalendarIcon, DumbbellIcon, MapPinIcon, ShieldCheckIcon, UserIcon } from '../ui/icons.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { usePageTitle } from '../ui/use-page-title.ts';

const CARD = 'rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-6 dark:bg-stone-900 dark:ring-white/8';
/** The page looks again this often, so a check-in answer shows without reloading. */
const REFRESH_MS = 60_000;

type State = { status: 'loading' } | { status: 'shown'; shared: SharedSession } | { status: 'gone'; message: string };

const timeText = (iso: string) =>
  new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Madrid' }).format(
    new Date(iso),
  );

function CheckInLine({ shared }: { shared: SharedSession }) {
  const checkIn = shared.checkIn;
  if (!checkIn) return null;
  const text =
    checkIn.state === 'answered'
      ? checkIn.answer === 'ok'
        ? `${shared.sharedBy} ha respondido «Todo bien» a las ${timeText(checkIn.answeredAt ?? checkIn.at)}.`
        : `${shared.sharedBy} ha respondido «Necesito ayuda» a las ${timeText(checkIn.answeredAt ?? checkIn.at)}. Intenta contactar con ${shared.sharedBy}.`
      : checkIn.state === 'missed'
        ? `${shared.sharedBy} no ha respondido al aviso «¿Todo bien?» de las ${timeText(checkIn.at)}.`
        : `A las ${timeText(checkIn.at)} preguntaremos a ${shared.sharedBy} «¿Todo bien?» y verás aquí su respuesta.`;
  const tone =
    checkIn.state === 'answered' && checkIn.answer === 'ok'
      ? 'bg-emerald-50 text-emerald-900 ring-emerald-200 dark:bg-emerald-500/12 dark:text-emerald-100'
      : checkIn.state === 'pending'
        ? 'bg-stone-50 text-stone-800 ring-stone-200 dark:bg-white/6 dark:text-stone-100'
        : 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/12 dark:text-amber-100';
  return (
    <p data-testid="shared-check-in" className={`rounded-2xl p-4 text-sm font-semibold ring-1 ${tone}`}>
      {text}
    </p>
  );
}

function VerifiedMark({ person }: { person: SharedPerson }) {
  return person.isVerified ? (
    <ShieldCheckIcon className="size-5 shrink-0 text-sky-600" label="Perfil verificado" />
  ) : (
    <span className="text-sm font-normal text-stone-600 dark:text-stone-300">(perfil sin verificar)</span>
  );
}

/** An open session's people (docs/decisions/0054, session 17): who organises it, then who has a place. */
function SessionPeople({ people }: { people: (SharedPerson & { isHost: boolean })[] }) {
  if (people.length === 0) {
    return (
      <p className="text-lg font-bold text-stone-900 dark:text-white" data-testid="shared-people">
        Entreno abierto: aún no se ha unido nadie más.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <h2 className="text-lg font-bold text-stone-900 dark:text-white">Entreno abierto con</h2>
      <ul className="flex flex-col gap-2" data-testid="shared-people" aria-label="Con quién entrena">
        {people.map((person, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the page has no ids by design; the order is the server's.
            key={index}
            className="flex items-center gap-3"
          >
            {person.photo ? (
              <img src={person.photo} alt={`Foto de ${person.firstName}`} className="size-12 rounded-xl object-cover" />
            ) : (
              <span className="grid size-12 place-items-center rounded-xl bg-stone-100 dark:bg-white/8">
                <UserIcon className="size-6 text-stone-500" />
              </span>
            )}
            <p className="flex flex-wrap items-center gap-2 font-semibold text-stone-900 dark:text-white">
              {person.firstName}
              <VerifiedMark person={person} />
              {person.isHost ? (
                <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-bold text-brand-800 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-200 dark:ring-brand-500/25">
                  Organiza
                </span>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * «Compartir con alguien de confianza» (issue #35, docs/decisions/0054): what the trusted contact
 * sees, read-only and without signing in — who, where, when and the «¿Todo bien?» answer.
 */
export function SharedSessionPage() {
  usePageTitle('Entreno compartido');
  const { token } = useParams({ from: '/info/compartido/$token' });
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    let isCurrent = true;
    const load = async () => {
      try {
        const response = await fetch(`/api/shared/${encodeURIComponent(token)}`, { cache: 'no-store' });
        const body = (await response.json()) as SharedSessionResponse | { message?: string };
        if (!isCurrent) return;
        if (response.ok && 'shared' in body) setState({ status: 'shown', shared: body.shared });
        else
          setState({ status: 'gone', message: ('message' in body && body.message) || SHARE_MESSAGES.publicNotFound });
      } catch {
        if (isCurrent)
          setState((current) =>
            current.status === 'loading'
              ? { status: 'gone', message: 'No se pudo cargar el entreno. Comprueba tu conexión.' }
              : current,
          );
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      isCurrent = false;
      clearInterval(timer);
    };
  }, [token]);

  if (state.status === 'loading') return <Spinner />;
  if (state.status === 'gone') {
    return (
      <div className={CARD}>
        <h1 className="text-xl font-extrabold text-stone-900 dark:text-white">Entreno compartido</h1>
        <p className="mt-2 text-stone-700 dark:text-stone-200">{state.message}</p>
      </div>
    );
  }
  const { shared } = state;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 dark:text-white">
        {shared.sharedBy} ha compartido su entreno contigo
      </h1>
      {shared.isCancelled ? (
        <p className="rounded-2xl bg-amber-50 p-4 text-sm font-semibold text-amber-900 ring-1 ring-amber-200">
          Este entreno se ha cancelado.
        </p>
      ) : null}
      <div className={`${CARD} flex flex-col gap-3`}>
        {shared.kind === 'quedada' ? (
          <div className="flex items-center gap-3">
            {shared.partner.photo ? (
              <img
                src={shared.partner.photo}
                alt={`Foto de ${shared.partner.firstName}`}
                className="size-16 rounded-2xl object-cover"
              />
            ) : null}
            <p
              className="flex items-center gap-2 text-lg font-bold text-stone-900 dark:text-white"
              data-testid="shared-partner"
            >
              Con {shared.partner.firstName}
              <VerifiedMark person={shared.partner} />
            </p>
          </div>
        ) : (
          <SessionPeople people={shared.people} />
        )}
        <p className="flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
          <DumbbellIcon className="size-4 shrink-0" />
          {shared.activity}
        </p>
        <p className="flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
          <CalendarIcon className="size-4 shrink-0" />
          <span>
            <time dateTime={shared.startsAt}>{quedadaWhen(shared.startsAt)}</time> · {durationText(shared.durationMin)}
          </span>
        </p>
        <p className="flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
          <MapPinIcon className="size-4 shrink-0" />
          {[shared.gymName, shared.gymAddress].filter(Boolean).join(', ')}
        </p>
      </div>
      <CheckInLine shared={shared} />
      <p className="text-xs text-stone-600 dark:text-stone-400">
        Este enlace deja de funcionar cuando termina el entreno o si {shared.sharedBy} lo revoca.
      </p>
    </div>
  );
}
