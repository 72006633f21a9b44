import { expect, it } from 'vitest';
import { redirectMessage, SUCCESS_REDIRECT_AT_MS, successProgress } from './success-timeline.ts';

it('ticks at 3 s, 6 s and 7 s, counts down 3 s, then redirects 1 s later', () => {
  expect(successProgress(0)).toEqual({ phase: 'checking', ticked: 0 });
  expect(successProgress(2999)).toEqual({ phase: 'checking', ticked: 0 });
  expect(successProgress(3000)).toEqual({ phase: 'checking', ticked: 1 });
  expect(successProgress(6000)).toEqual({ phase: 'checking', ticked: 2 });
  expect(successProgress(7000)).toEqual({ phase: 'countdown', ticked: 3, secondsLeft: 3 });
  expect(successProgress(8000)).toEqual({ phase: 'countdown', ticked: 3, secondsLeft: 2 });
  expect(successProgress(9999)).toEqual({ phase: 'countdown', ticked: 3, secondsLeft: 1 });
  expect(successProgress(10_000)).toEqual({ phase: 'redirecting', ticked: 3 });
  expect(SUCCESS_REDIRECT_AT_MS).toBe(11_000);
});

it('words the countdown', () => {
  expect(redirectMessage(3)).toBe('Serás redirigido en 3 segundos...');
  expect(redirectMessage(1)).toBe('Serás redirigido en 1 segundo...');
});
