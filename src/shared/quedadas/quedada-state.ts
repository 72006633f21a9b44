/**
 * The quedada's state machine (issue #21): proposed → accepted / declined / countered / cancelled,
 * countered → the same answers again, accepted → cancelled / done / missed. Pure: the server runs
 * it before its guarded write (which re-checks the version it read), the client to decide which
 * buttons a card shows, and the unit tests against every pair of state and action.
 */
import type { QUEDADA_MESSAGES } from './quedada-messages.ts';
import {
  LATE_CANCEL_MS,
  OPEN_STATUSES,
  type Quedada,
  type QuedadaActionRequest,
  type QuedadaProposal,
  type QuedadaStatus,
} from './quedada-schemas.ts';

type MessageKey = keyof typeof QUEDADA_MESSAGES;

/** What the machine reads of a quedada. */
export type QuedadaState = Pick<
  Quedada,
  'status' | 'proposerId' | 'proposedBy' | 'startsAt' | 'durationMin' | 'history' | 'confirmations'
> & { members: readonly [string, string] };

/** The columns an accepted action changes. */
export type QuedadaPatch = {
  status: QuedadaStatus;
  proposedBy?: string;
  startsAt?: string;
  durationMin?: number;
  history?: QuedadaProposal[];
  cancelledBy?: string;
  isLateCancel?: boolean;
  confirmations?: Record<string, boolean | null>;
};

export type Transition = { ok: true; patch: QuedadaPatch } | { ok: false; status: 403 | 409 | 400; error: MessageKey };

const refuse = (status: 403 | 409 | 400, error: MessageKey): Transition => ({ ok: false, status, error });

/** When a quedada (or an open session: decision 0055) ends, in ms: its start plus its duration. */
export const endOf = (state: { startsAt: string | Date; durationMin: number }): number =>
  new Date(state.startsAt).getTime() + state.durationMin * 60_000;

/** Whether `at` is a usable start: in the future (a minute of grace for clocks) and within the horizon. */
export function startProblem(startsAt: string, now: Date, horizonDays: number): MessageKey | null {
  const at = new Date(startsAt).getTime();
  if (Number.isNaN(at)) return 'startsAt';
  if (at <= now.getTime()) return 'startsInPast';
  if (at > now.getTime() + horizonDays * 86_400_000) return 'startsTooFar';
  return null;
}

/** The next state when `actorId` does `action` at `now`, or why not. */
export function transition(state: QuedadaState, action: QuedadaActionRequest, actorId: string, now: Date): Transition {
  if (!state.members.includes(actorId)) return refuse(403, 'quedadaNotFound');
  const isOpen = OPEN_STATUSES.includes(state.status);
  const startMs = new Date(state.startsAt).getTime();
  if (state.status === 'cancelled') return refuse(409, 'cancelled');
  switch (action.action) {
    case 'accept':
    case 'decline':
    case 'counter': {
      if (!isOpen) return refuse(409, 'notAnswerable');
      if (state.proposedBy === actorId) return refuse(403, 'ownProposal');
      // A proposal whose time has come can no longer be accepted; a counter or a "no" still can.
      if (action.action === 'accept' && startMs <= now.getTime()) return refuse(409, 'notAnswerable');
      if (action.action === 'accept') return { ok: true, patch: { status: 'accepted' } };
      if (action.action === 'decline') return { ok: true, patch: { status: 'declined' } };
      return {
        ok: true,
        patch: {
          status: 'countered',
          proposedBy: actorId,
          startsAt: new Date(action.startsAt).toISOString(),
          durationMin: action.durationMin,
          history: [
            ...state.history,
            { by: state.proposedBy, startsAt: state.startsAt, durationMin: state.durationMin, at: now.toISOString() },
          ],
        },
      };
    }
    case 'cancel': {
      if (isOpen) {
        // Before an answer only the author of the current proposal withdraws it.
        if (state.proposedBy !== actorId) return refuse(403, 'cannotCancel');
        return { ok: true, patch: { status: 'cancelled', cancelledBy: actorId, isLateCancel: false } };
      }
      if (state.status !== 'accepted' || startMs <= now.getTime()) return refuse(409, 'notAnswerable');
      return {
        ok: true,
        patch: { status: 'cancelled', cancelledBy: actorId, isLateCancel: startMs - now.getTime() < LATE_CANCEL_MS },
      };
    }
    case 'confirm': {
      if (state.status !== 'accepted' && state.status !== 'missed' && state.status !== 'done') {
        return refuse(409, 'notConfirmable');
      }
      if (now.getTime() < endOf(state)) return refuse(409, 'notEnded');
      if (state.confirmations[actorId] !== null && state.confirmations[actorId] !== undefined) {
        return refuse(409, 'alreadyConfirmed');
      }
      const confirmations = { ...state.confirmations, [actorId]: action.trained };
      const answers = state.members.map((member) => confirmations[member] ?? null);
      let status: QuedadaStatus = state.status;
      if (answers.includes(false)) status = 'missed';
      else if (answers.every((answer) => answer === true)) status = 'done';
      return { ok: true, patch: { status, confirmations } };
    }
  }
}

/** The actions a member may take now: the card's buttons. */
export function availableActions(state: QuedadaState, actorId: string, now: Date): QuedadaActionRequest['action'][] {
  const probes: QuedadaActionRequest[] = [
    { clientId: 'x', action: 'accept' },
    { clientId: 'x', action: 'decline' },
    { clientId: 'x', action: 'counter', startsAt: state.startsAt, durationMin: state.durationMin },
    { clientId: 'x', action: 'cancel' },
    { clientId: 'x', action: 'confirm', trained: true },
  ];
  return probes.filter((probe) => transition(state, probe, actorId, now).ok).map((probe) => probe.action);
}
