/**
 * The Spanish wording of the compatibility reasons (compatibility.ts): lists, parts of the day
 * and availability slots in words.
 */
import { WEEK_DAYS } from '../profile/options.ts';

/** "A", "A y B", "A, B y C"; "e" instead of "y" before an /i/ sound ("Yoga e Instructor"). */
export function spanishList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  const last = items[items.length - 1] ?? '';
  const conjunction = /^h?[ií](?![aeiouáéíóú])/i.test(last) ? 'e' : 'y';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${last}`;
}

/** At most three items named, the rest counted: "A, B, C y 2 más". */
export function shortList(items: readonly string[]): string {
  if (items.length <= 3) return spanishList(items);
  return `${items.slice(0, 3).join(', ')} y ${items.length - 3} más`;
}

export function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase('es-ES') + text.slice(1);
}

export const PART_OF_DAY: Readonly<Record<string, string>> = {
  Mañana: 'por la mañana',
  Tarde: 'por la tarde',
  Noche: 'por la noche',
  mañana: 'por la mañana',
  tarde: 'por la tarde',
};

/** "los martes", "los sábados". */
function weekdayPlural(day: string): string {
  const lower = day.toLocaleLowerCase('es-ES');
  return lower.endsWith('s') ? lower : `${lower}s`;
}

/** "los lunes y martes por la tarde y los jueves por la mañana", or null for odd slot names. */
export function slotPhrase(slots: readonly string[]): string | null {
  // Slots are ordered by day then part; name the days of each part together.
  const byPart = new Map<string, string[]>();
  for (const slot of slots) {
    const [day = '', part = ''] = slot.split(' ');
    if (!WEEK_DAYS.includes(day as (typeof WEEK_DAYS)[number]) || !PART_OF_DAY[part]) continue;
    byPart.set(part, [...(byPart.get(part) ?? []), weekdayPlural(day)]);
  }
  const phrases = [...byPart].map(([part, days]) => `los ${spanishList(days)} ${PART_OF_DAY[part]}`);
  return phrases.length === 0 ? null : phrases.join(' y ');
}
