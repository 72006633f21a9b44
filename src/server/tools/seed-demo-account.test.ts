import { describe, expect, it } from 'vitest';
import { choosePartners } from './seed-demo-account.ts';

const now = new Date('2026-11-27T10:00:00Z');
const person = (
  id: string,
  name: string,
  birthYear: number,
  more: Partial<Parameters<typeof choosePartners>[0]> = {},
) => ({
  id,
  name,
  birthDate: `${birthYear}-06-01`,
  gender: 'female',
  genderPreference: 'both',
  ageMin: 18,
  ageMax: 99,
  ...more,
});

describe('choosePartners (the demo account’s four matches)', () => {
  const demo = person('demo', 'Demo', 1996, { gender: 'male', ageMin: 22, ageMax: 40 });

  it('takes people who fit the demo account both ways, one per first name, the closest in age first', () => {
    const pool = [
      person('a1', 'Aitana', 1997),
      person('a2', 'Aitana', 1995),
      person('a3', 'Aitana', 1976), // 50: outside the demo account's range
      person('b', 'Blanca', 1990),
      person('c', 'Carla', 1999, { genderPreference: 'female' }), // does not want a man
      person('d', 'Diego', 2000, { gender: 'male' }),
      person('e', 'Elena', 1988),
      person('f', 'Fran', 1998, { ageMax: 25 }), // the demo account, 30, is too old for her
    ];
    const chosen = choosePartners(demo, pool, now).map((partner) => partner.id);
    expect(chosen).toEqual(['a1', 'd', 'b', 'e']);
  });

  it('falls back to the rest of the pool when too few fit, still four people', () => {
    const pool = [person('a', 'Ana', 1960), person('b', 'Ana', 1961), person('c', 'Bea', 1996)];
    expect(choosePartners(demo, pool, now).map((partner) => partner.id)).toEqual(['c', 'a', 'b']);
  });
});
