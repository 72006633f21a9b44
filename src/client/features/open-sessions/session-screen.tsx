import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import type { Attendance } from '#shared/open-sessions/open-session-after';
import type { OpenSession, OpenSessionMember } from '#shared/open-sessions/open-session-schemas';
import { endOf } from '#shared/quedadas/quedada-state';
import { SHARE_GRACE_MS } from '#shared/quedadas/share-schemas';
import type { LocalDb } from '../../services/local-db.ts';
import { connection } from '../../services/socket.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { Button, buttonClasses } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { CalendarIcon } from '../../ui/icons.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { OpenSessionFacts, PANEL, stateLabel } from './open-session-card.tsx';
import {
  downloadOpenSessionCalendar,
  readError,
  readMembers,
  readSession,
  refreshSession,
  writeOpenSession,
} from './open-session-store.ts';
import { ScreenHeader } from './open-sessions-screen.tsx';
import { RepeatNextWeek, WhoCame } from './session-after.tsx';
import { canAskWhoCame, readAttendance, readPendingConnects, readRepeat } from './session-after-store.ts';

type Shown = {
  session: OpenSession | null;
  members: OpenSessionMember[];
  error: string;
  attendance: Attendance | null;
  /** «Repetir la próxima semana»: '' while it waits, then the new session's id. */
  repeat: string | undefined;
  /** Whom a «Conectar» still waits in the outbox for. */
  connecting: string[];
};

const MEMBER_LABELS: Record<OpenSessionMember['state'], string> = {
  requested: 'Quiere unirse',
  approved: 'Dentro',
  declined: 'No aceptada',
  left: 'Se fue',
  removed: 'Quitada del entreno',
};

/** A requester as the host sees them: profile, «Por qué encajáis», reliability; approve or decline. */
function MemberRow({ session, member }: { session: OpenSession; member: OpenSessionMember }) {
  const profile = member.profile;
  const photo = profile?.photos[0];
  const isOpen = session.status === 'open';
  return (
    <li className="flex flex-col gap-2 border-t border-stone-200 py-3 first:border-t-0 dark:border-white/10">
      <div className="flex items-center gap-3">
        {photo ? (
          <img src={`/${photo}`} alt="" className="size-12 shrink-0 rounded-full object-cover" />
        ) : (
          <span className="size-12 shrink-0 rounded-full bg-stone-200 dark:bg-white/10" />
        )}
        <div className="min-w-0">
          <p className="font-bold text-stone-900 dark:text-white">
            {profile ? `${profile.name}${profile.age ? `, ${profile.age}` : ''}` : 'Perfil no disponible'}
          </p>
          <p className="text-xs text-stone-600 dark:text-stone-300">
            {MEMBER_LABELS[member.state]}
            {profile?.distanceText ? ` · ${profile.distanceText}` : ''}
            {member.reliability
              ? ` · ${member.reliability.kept} de ${member.reliability.counted} quedadas cumplidas`
              : ''}
          </p>
        </div>
      </div>
      {profile && profile.compatibilityReasons.length > 0 && (
        <p className="text-sm text-stone-700 dark:text-stone-200">
          <span className="font-semibold">Por qué encajáis:</span> {profile.compatibilityReasons.join(' · ')}
        </p>
      )}
      {member.message && <p className="text-sm italic text-stone-700 dark:text-stone-200">«{member.message}»</p>}
      {isOpen && member.state === 'requested' && (
        <div className="flex gap-2">
          <Button
            size="sm"
            disabled={session.isFull}
            onClick={() =>
              void writeOpenSession(session, { action: 'answer', userId: member.userId, decision: 'approve' })
            }
          >
            Aprobar
          </Button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() =>
              void writeOpenSession(session, { action: 'answer', userId: member.userId, decision: 'decline' })
            }
          >
            Rechazar
          </Button>
        </div>
      )}
      {isOpen && member.state === 'approved' && (
        <div>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void writeOpenSession(session, { action: 'remove', userId: member.userId })}
          >
            Quitar del entreno
          </Button>
        </div>
      )}
    </li>
  );
}

/** The viewer's one action: Unirme / Solicitar / Completo / Salir / Cancelar (and an invitation's words). */
function Actions({ session }: { session: OpenSession }) {
  const [message, setMessage] = useState('');
  // Once it has ended nobody joins, leaves or cancels: who was in it is settled («¿Quién vino?»).
  if (session.status !== 'open' || endOf(session) <= Date.now()) return null;
  if (session.myState === 'host') {
    return (
      <Button variant="secondary" isFullWidth onClick={() => void writeOpenSession(session, { action: 'cancel' })}>
        Cancelar entreno
      </Button>
    );
  }
  if (session.myState === 'approved' || session.myState === 'requested') {
    return (
      <Button variant="secondary" isFullWidth onClick={() => void writeOpenSession(session, { action: 'leave' })}>
        {session.myState === 'approved' ? 'Salir' : 'Retirar solicitud'}
      </Button>
    );
  }
  if (session.myState === 'declined' || session.myState === 'removed') return null;
  // Invited to a repeat («Repetir la próxima semana»): in at once, whatever the approval.
  const invitation = session.isInvited && (
    <p data-testid="open-session-invitation" className="text-sm text-stone-700 dark:text-stone-200">
      {session.isFull
        ? `${session.host.name} te invitó a repetir este entreno, pero ya no quedan plazas.`
        : `${session.host.name} te invitó a repetir este entreno: al unirte entras directamente.`}
    </p>
  );
  if (session.isFull) {
    return (
      <div className="flex flex-col gap-2">
        {invitation}
        <Button isFullWidth disabled>
          Completo
        </Button>
      </div>
    );
  }
  const isRequest = session.approval === 'host' && !session.isInvited;
  return (
    <div className="flex flex-col gap-2">
      {invitation}
      {isRequest && (
        <textarea
          aria-label="Mensaje para quien organiza (opcional)"
          placeholder="Mensaje para quien organiza (opcional)"
          rows={2}
          maxLength={200}
          className="w-full resize-none rounded-xl border border-stone-300 bg-white px-3 py-2.5 text-[0.9375rem] text-stone-900 dark:border-white/15 dark:bg-stone-900 dark:text-white"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      )}
      <Button
        isFullWidth
        onClick={() =>
          void writeOpenSession(session, { action: 'join', ...(message.trim() ? { message: message.trim() } : {}) })
        }
      >
        {isRequest ? 'Solicitar' : 'Unirme'}
      </Button>
    </div>
  );
}

/**
 * One open session: its facts, the viewer's action, and for its host the requests. The route hands
 * in `renderReport` (safety's report entry, shown to anyone but the host) and `renderShare` (the
 * quedadas' «Compartir con alguien de confianza», shown to whoever holds a place; `canCreate`
 * while the session is held and not over, its links and check-ins until they expire).
 */
export function SessionScreen({
  sessionId,
  renderReport,
  renderShare,
}: {
  sessionId: string;
  renderReport?: (session: OpenSession) => ReactNode;
  renderShare?: (session: OpenSession, canCreate: boolean) => ReactNode;
}) {
  usePageTitle('Entreno abierto');
  const [isMissing, setIsMissing] = useState(false);
  useEffect(() => {
    const refresh = () => void refreshSession(sessionId).then((result) => setIsMissing(result === 'missing'));
    refresh();
    // After a reconnect, catch up with what changed while the socket was down (its events were lost).
    let wasConnected = connection.getSnapshot().status === 'connected';
    return connection.subscribe(() => {
      const isConnected = connection.getSnapshot().status === 'connected';
      if (isConnected && !wasConnected) refresh();
      wasConnected = isConnected;
    });
  }, [sessionId]);
  // Every read starts at once: the live query watches only what it reads before its first native
  // await (read one after another, a change to the later ones — a mark made offline — went unseen).
  const read = async (db: LocalDb): Promise<Shown> => {
    const [session, members, error, attendance, repeat, connecting] = await Promise.all([
      readSession(db, sessionId),
      readMembers(db, sessionId),
      readError(db, sessionId),
      readAttendance(db, sessionId),
      readRepeat(db, sessionId),
      readPendingConnects(db, sessionId),
    ]);
    return { session, members: members ?? [], error, attendance, repeat, connecting };
  };
  const { session, members, error, attendance, repeat, connecting } = useLiveQuery(`open-session:${sessionId}`, read, {
    session: null,
    members: [],
    error: '',
    attendance: null,
    repeat: undefined,
    connecting: [],
  });
  const hasEnded = session ? endOf(session) <= Date.now() : false;
  const label = session ? stateLabel(session) : null;
  return (
    <div className="flex flex-col gap-5">
      <ScreenHeader back="/entrenos/abiertos" backLabel="Volver a Entrenos abiertos" title="Entreno abierto" />
      {!session || isMissing ? (
        <p className={cx(PANEL, 'text-sm text-stone-700 dark:text-stone-200')}>
          {isMissing ? 'Este entreno ya no está disponible.' : 'Cargando entreno…'}
        </p>
      ) : (
        <>
          <section className={PANEL} aria-label="Detalles del entreno">
            <p className="mb-2 flex items-center gap-2 text-sm font-semibold text-stone-600 dark:text-stone-300">
              {session.host.photo && (
                <img src={session.host.photo} alt="" className="size-8 rounded-full object-cover" />
              )}
              Organiza {session.host.name}
              {session.host.isVerified ? ' · Verificado' : ''}
            </p>
            <OpenSessionFacts session={session} />
            {session.gymAddress && (
              <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">{session.gymAddress}</p>
            )}
            {session.note && <p className="mt-2 text-sm text-stone-700 dark:text-stone-200">{session.note}</p>}
            {label && (
              <p
                role="status"
                data-testid="open-session-state"
                className="mt-3 text-sm font-bold text-brand-800 dark:text-brand-300"
              >
                {label}
              </p>
            )}
          </section>
          {error && (
            <p role="alert" className="text-sm font-semibold text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          <Actions session={session} />
          {canAskWhoCame(session, Date.now()) && (
            <WhoCame session={session} attendance={attendance} connecting={connecting} />
          )}
          {session.myState === 'host' && hasEnded && session.status !== 'removed' && (
            <RepeatNextWeek session={session} repeat={repeat} />
          )}
          {session.status === 'open' && !hasEnded && (session.myState === 'host' || session.myState === 'approved') && (
            <Button
              variant="secondary"
              isFullWidth
              iconStart={<CalendarIcon className="size-4" />}
              onClick={() => void downloadOpenSessionCalendar(session)}
            >
              Añadir al calendario
            </Button>
          )}
          {(session.myState === 'host' || session.myState === 'approved') &&
            Date.now() < endOf(session) + SHARE_GRACE_MS &&
            renderShare?.(session, session.status === 'open' && !hasEnded)}
          {session.conversationId && (
            <Link
              to="/messages/$conversationId"
              params={{ conversationId: session.conversationId }}
              className={buttonClasses({ variant: 'secondary' })}
            >
              Abrir chat del grupo
            </Link>
          )}
          {session.myState === 'host' && (
            <section className={PANEL} aria-labelledby="open-session-requests">
              <h2 id="open-session-requests" className="text-lg font-bold text-stone-900 dark:text-white">
                Solicitudes y participantes
              </h2>
              {members.length === 0 ? (
                <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">Aún no se ha apuntado nadie.</p>
              ) : (
                <ul className="mt-1">
                  {members.map((member) => (
                    <MemberRow key={member.userId} session={session} member={member} />
                  ))}
                </ul>
              )}
            </section>
          )}
          {session.myState !== 'host' && renderReport?.(session)}
        </>
      )}
    </div>
  );
}
