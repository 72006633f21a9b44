import { dayNumber, madridDayKey } from '../time/madrid-calendar.ts';

/**
 * Whole years between a "YYYY-MM-DD" birth date and `today` (a Date, read as its Madrid calendar
 * day, or a "YYYY-MM-DD" day). Someone born on 29 February turns a year older on 1 March in
 * common years. NaN when either date is not a real calendar date.
 */
export function ageFromBirthDate(birthDate: string, today: Date | string): number {
  const todayKey = typeof today === 'string' ? today : Number.isNaN(today.getTime()) ? '' : madridDayKey(today);
  if (Number.isNaN(dayNumber(birthDate)) || Number.isNaN(dayNumber(todayKey))) return Number.NaN;
  const [birthYear, birthMonth, birthDay] = birthDate.split('-').map(Number) as [number, number, number];
  const [year, month, day] = todayKey.split('-').map(Number) as [number, number, number];
  const hadBirthday = month > birthMonth || (month === birthMonth && day >= birthDay);
  return year - birthYear - (hadBirthday ? 0 : 1);
}
