/**
 * What the pair and each person have to show for their quedadas (issue #21,
 * docs/decisions/0029): the pair streak in consecutive Madrid weeks, and reliability
 * ("8 de 9 quedadas cumplidas").
 */
import { dayNumber, madridDayKey } from '../time/madrid-calendar.ts';
import type { Quedada, Reliability } from './quedada-schemas.ts';

/** Monday-based week number of an instant's Madrid day (1970-01-01 was a Thursday). */
export function madridWeek(value: Date | string | number): number {
  return Math.floor((dayNumber(madridDayKey(value)) + 3) / 7);
}

/**
 * Consecutive weeks with a quedada both confirmed ("done"), counted back from this week — or from
 * last week, while this week has none yet (the streak is still alive until the week ends).
 */
export function pairStreakWeeks(doneStarts: readonly (string | Date)[], now: Date): number {
  const weeks = new Set(doneStarts.map((start) => madridWeek(start)));
  let week = madridWeek(now);
  if (!weeks.has(week)) week -= 1;
  let streak = 0;
  while (weeks.has(week)) {
    streak += 1;
    week -= 1;
  }
  return streak;
}

type Counted = Pick<Quedada, 'status' | 'cancelledBy' | 'isLateCancel' | 'confirmations'>;

/**
 * Kept: done. Against the user: a cancellation of theirs less than 2 h before the start, or a
 * "No" from the other member to "¿Entrenasteis juntos?". Nothing else counts (docs/decisions/0029).
 */
export function reliabilityOf(userId: string, quedadas: readonly Counted[]): Reliability {
  let kept = 0;
  let against = 0;
  for (const quedada of quedadas) {
    if (quedada.status === 'done') kept += 1;
    else if (quedada.status === 'cancelled' && quedada.isLateCancel && quedada.cancelledBy === userId) against += 1;
    else if (quedada.status === 'missed') {
      const otherSaidNo = Object.entries(quedada.confirmations).some(
        ([member, answer]) => member !== userId && answer === false,
      );
      if (otherSaidNo) against += 1;
    }
  }
  return { kept, counted: kept + against };
}

/** "8 de 9 quedadas cumplidas" (singular for one). */
export function reliabilityText(reliability: Reliability): string {
  const noun = reliability.counted === 1 ? 'quedada cumplida' : 'quedadas cumplidas';
  return `${reliability.kept} de ${reliability.counted} ${noun}`;
}

/** "Racha de 3 semanas entrenando juntos" */
export function streakText(weeks: number): string {
  return weeks === 1 ? 'Racha de 1 semana entrenando juntos' : `Racha de ${weeks} semanas entrenando juntos`;
}

const SLOT_DAYS = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'];

/**
 * "Los dos podéis: martes y jueves por la tarde" from the slots both profiles share, grouped by
 * part of the day, or null when they share none.
 */
export function sharedAvailabilityText(slots: readonly string[]): string | null {
  if (slots.length === 0) return null;
  const byPart = new Map<string, string[]>();
  for (const slot of slots) {
    const [day, part] = slot.split(' ');
    if (!day || !part) continue;
    byPart.set(part, [...(byPart.get(part) ?? []), day]);
  }
  const phrases = [...byPart.entries()].map(([part, days]) => {
    const sorted = days.sort((a, b) => SLOT_DAYS.indexOf(a) - SLOT_DAYS.indexOf(b)).map((day) => day.toLowerCase());
    const list = sorted.length === 1 ? sorted[0] : `${sorted.slice(0, -1).join(', ')} y ${sorted.at(-1)}`;
    return `${list} por la ${part}`;
  });
  return `Los dos podéis: ${phrases.join('; ')}`;
}
