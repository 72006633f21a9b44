import { describe, expect, it } from 'vitest';
import { preferencesErrors } from './preferences-dialog.tsx';

describe('preferences rules (spec 001 §5)', () => {
  it('accepts a valid range', () => {
    expect(preferencesErrors(18, 99, 1)).toEqual({});
  });
  it('refuses min under 18, max over 99, min above max and distance under 1', () => {
    expect(preferencesErrors(17, 40, 10).min).toBe('La edad mínima debe estar entre 18 y 99 años');
    expect(preferencesErrors(20, 100, 10).max).toBe('La edad máxima debe estar entre 18 y 99 años');
    expect(preferencesErrors(40, 30, 10).min).toBe('La edad mínima no puede ser mayor que la máxima');
    expect(preferencesErrors(20, 30, 0).distance).toBe('La distancia debe ser de al menos 1 km');
  });
});
