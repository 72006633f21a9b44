import { describe, expect, it } from 'vitest';
import {
  formatSpanishPhone,
  isImplausiblePhone,
  isSpanishMobile,
  nationalDigits,
  normalizeSpanishPhone,
  phoneFieldMessage,
  phoneRangeKey,
  readPhoneField,
} from './phone.ts';

describe('readPhoneField (what people type and paste)', () => {
  it.each([
    ['612483792', '612483792'],
    ['612 483 792', '612483792'],
    ['612 48 37 92', '612483792'],
    ['612.483.792', '612483792'],
    ['612-48-37-92', '612483792'],
    ['(612) 483 792', '612483792'],
    ['+34 612483792', '612483792'],
    ['+34612483792', '612483792'],
    ['+34 612 48 37 92', '612483792'],
    ['0034 612 483 792', '612483792'],
    ['0034612483792', '612483792'],
    ['34 612 483 792', '612483792'],
    ['  +34\u00a0712-483-792 ', '712483792'],
    ['+34\u2011612\u2011483\u2011792', '612483792'],
  ])('reads %j as the mobile %s', (input, digits) => {
    expect(readPhoneField(input)).toEqual({ digits, problem: null });
  });

  it('never turns a half-typed +34 number into nine wrong digits', () => {
    const typed = '+34 612483792';
    for (let length = 1; length < typed.length; length += 1) {
      const field = readPhoneField(typed.slice(0, length));
      expect(field.problem, typed.slice(0, length)).not.toBeNull();
      expect(field.digits.startsWith('34')).toBe(false);
    }
    expect(readPhoneField(typed)).toEqual({ digits: '612483792', problem: null });
  });

  it('reads a number typed with 34 and no plus sign only once all 11 digits are there', () => {
    expect(readPhoneField('346124837').problem).toBe('not-mobile');
    expect(readPhoneField('3461248379').problem).toBe('long');
    expect(readPhoneField('34612483792')).toEqual({ digits: '612483792', problem: null });
  });

  it.each([
    ['', 'empty', null],
    ['   ', 'empty', null],
    ['+', 'short', 'Faltan 9 dígitos: un móvil español tiene 9.'],
    ['+34', 'short', 'Faltan 9 dígitos: un móvil español tiene 9.'],
    ['0034', 'short', 'Faltan 9 dígitos: un móvil español tiene 9.'],
    ['612 483 79', 'short', 'Falta 1 dígito: un móvil español tiene 9.'],
    ['6124837', 'short', 'Faltan 2 dígitos: un móvil español tiene 9.'],
    ['6124837921', 'long', 'Sobran dígitos: un móvil español tiene 9 (sin contar el +34).'],
    ['+33 612483792', 'foreign', 'Solo se admiten números de España (+34).'],
    ['0044 7911 123456', 'foreign', 'Solo se admiten números de España (+34).'],
    ['912483792', 'not-mobile', 'Debe ser un móvil: empieza por 6 o 7.'],
    ['+34 812 483 792', 'not-mobile', 'Debe ser un móvil: empieza por 6 o 7.'],
    ['61248379a', 'characters', 'Escribe solo números.'],
    ['6'.repeat(40), 'characters', 'Escribe solo números.'],
  ])('refuses %j as %s and says why', (input, problem, message) => {
    const field = readPhoneField(input);
    expect(field.problem).toBe(problem);
    expect(phoneFieldMessage(field)).toBe(message);
  });
});

describe('normalizeSpanishPhone', () => {
  it.each([
    ['+34612398745', '+34612398745'],
    ['612398745', '+34612398745'],
    ['+34 612 39 87 45', '+34612398745'],
    ['0034-612-398-745', '+34612398745'],
    ['(+34) 612.398.745', '+34612398745'],
    ['+34 612 48 37 92', '+34612483792'],
  ])('normalizes %s', (input, expected) => {
    expect(normalizeSpanishPhone(input)).toBe(expected);
  });

  it.each([
    '',
    '61239874',
    '6123987451',
    '+33612398745',
    '+3461239874a',
    '+1 612398745',
    'abc',
    `+34${'6'.repeat(40)}`,
  ])('refuses %s', (input) => {
    expect(normalizeSpanishPhone(input)).toBeNull();
  });
});

describe('phone rules', () => {
  it('knows the mobile ranges', () => {
    expect(isSpanishMobile('+34612398745')).toBe(true);
    expect(isSpanishMobile('+34712398745')).toBe(true);
    expect(isSpanishMobile('+34912398745')).toBe(false);
    expect(isSpanishMobile('+34512398745')).toBe(false);
  });

  it.each([
    '+34666666666',
    '+34600000000',
    '+34777777777',
    '+34612345678',
    '+34687654321',
    '+34678901234',
    '+34654321098',
  ])('flags %s as implausible', (phone) => {
    expect(isImplausiblePhone(phone)).toBe(true);
  });

  it.each(['+34612398745', '+34699123456', '+34600000001', '+34711223344'])('accepts %s as plausible', (phone) => {
    expect(isImplausiblePhone(phone)).toBe(false);
  });

  it('derives the range key, national digits and display form', () => {
    expect(phoneRangeKey('+34612398745')).toBe('+3461239');
    expect(nationalDigits('+34612398745')).toBe('612398745');
    expect(formatSpanishPhone('+34612398745')).toBe('+34 612 398 745');
  });
});
