import { expect, it } from 'vitest';
import { formatCountdown, formatMinutesAndSeconds, secondsUntil } from './countdown.ts';

it('formats the resend countdown as m:ss', () => {
  expect(formatCountdown(60)).toBe('1:00');
  expect(formatCountdown(59)).toBe('0:59');
  expect(formatCountdown(9)).toBe('0:09');
  expect(formatCountdown(0)).toBe('0:00');
  expect(formatCountdown(180)).toBe('3:00');
  expect(formatCountdown(-4)).toBe('0:00');
});

it('formats the limit countdown in words, singular where it must', () => {
  expect(formatMinutesAndSeconds(180)).toBe('3 minutos y 0 segundos');
  expect(formatMinutesAndSeconds(125)).toBe('2 minutos y 5 segundos');
  expect(formatMinutesAndSeconds(61)).toBe('1 minuto y 1 segundo');
  expect(formatMinutesAndSeconds(42)).toBe('0 minutos y 42 segundos');
});

it('counts whole seconds left, rounding up, never below zero', () => {
  expect(secondsUntil(10_000, 0)).toBe(10);
  expect(secondsUntil(10_000, 9_800)).toBe(1);
  expect(secondsUntil(10_000, 10_000)).toBe(0);
  expect(secondsUntil(10_000, 12_000)).toBe(0);
  expect(secondsUntil(null, 0)).toBe(0);
});
