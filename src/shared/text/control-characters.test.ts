import { describe, expect, it } from 'vitest';
import { controlCharacterMessage, findControlCharacter, hasControlCharacter } from './control-characters.ts';

describe('control characters', () => {
  it('finds NUL, the other C0 controls and DEL, not tab or line breaks', () => {
    for (const text of ['\u0000', 'a\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\u007f']) {
      expect(hasControlCharacter(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ['hola', 'línea\nnueva', 'a\tb', 'a\r\nb', 'ñandú 💪', '']) {
      expect(hasControlCharacter(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('names the dotted path of the first offending field, keys included', () => {
    expect(findControlCharacter({ email: 'a@b.es', location: { city: 'Ma\u0000drid' } })).toBe('location.city');
    expect(findControlCharacter({ list: ['ok', 'x\u0007'] })).toBe('list.1');
    expect(findControlCharacter({ 'bad\u0000key': 1 })).toBe('clave');
    expect(findControlCharacter({ nested: { 'k\u0000': 1 } })).toBe('nested');
    expect(findControlCharacter({ a: 1, b: null, c: ['x'] })).toBeUndefined();
    expect(findControlCharacter('\u0000')).toBe('');
    expect(controlCharacterMessage('email')).toBe('El campo email contiene caracteres no permitidos');
  });
});
