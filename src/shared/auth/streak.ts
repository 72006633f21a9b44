import { dayNumber, isIsoDay, madridDayKey } from '../time/madrid-calendar.ts';

export type Streak = { streak: number; lastLoginDate: string | null };

/** Today's day in Madrid ("YYYY-MM-DD"): the product counts streak days there (spec 000 §4). */
export function streakDay(now: Date): string {
  return madridDayKey(now);
}

/**
 * The daily login streak (spec 000 §4): last login today leaves it unchanged, yesterday adds 1,
 * any other date or none starts again at 1. Dates are Madrid days written YYYY-MM-DD.
 */
export function nextStreak(previous: Streak, today: string): Streak {
  if (!isIsoDay(today)) throw new RangeError(`not a YYYY-MM-DD date: ${today}`);
  const last = previous.lastLoginDate;
  const daysSince = last !== null && isIsoDay(last) ? dayNumber(today) - dayNumber(last) : Number.NaN;
  if (daysSince === 0) return { streak: Math.max(1, previous.streak), lastLoginDate: today };
  if (daysSince === 1) return { streak: previous.streak + 1, lastLoginDate: today };
  return { streak: 1, lastLoginDate: today };
}
