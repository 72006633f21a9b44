import { describe, expect, it } from 'vitest';
import {
  formatSpanishPhone,
  isImplausiblePhone,
  isSpanishMobile,
  nationalDigits,
  normalizeSpanishPhone,
  phoneRangeKey,
} from './phone.ts';

describe('normalizeSpanishPhone', () => {
  it.each([
    ['+34612398745', '+34612398745'],
    ['612398745', '+34612398745'],
    ['+34 612 39 87 45', '+34612398745'],
    ['0034-612-398-745', '+34612398745'],
    ['(+34) 612.398.745', '+34612398745'],
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
