import { describe, expect, it } from 'vitest';
import {
  backspaceInCode,
  codeValue,
  emptyCode,
  isCodeComplete,
  pasteIntoCode,
  typeIntoCode,
} from './code-input-logic.ts';

const code = (text: string) => text.split('').map((char) => (char === '_' ? '' : char));

describe('typing into the code boxes', () => {
  it('puts the digit in the box and advances focus', () => {
    expect(typeIntoCode(emptyCode(), 0, '4')).toEqual({ digits: code('4_____'), focusIndex: 1 });
    expect(typeIntoCode(code('12345_'), 5, '6')).toEqual({ digits: code('123456'), focusIndex: 5 });
  });

  it('ignores anything but digits', () => {
    expect(typeIntoCode(code('1_____'), 1, 'a')).toEqual({ digits: code('1_____'), focusIndex: 1 });
    expect(typeIntoCode(code('12____'), 1, '2e')).toEqual({ digits: code('12____'), focusIndex: 2 });
  });

  it('replaces a digit typed over an existing one, wherever the caret was', () => {
    expect(typeIntoCode(code('123___'), 1, '27').digits).toEqual(code('173___'));
    expect(typeIntoCode(code('123___'), 1, '72').digits).toEqual(code('173___'));
  });

  it('empties the box on deletion', () => {
    expect(typeIntoCode(code('123___'), 1, '')).toEqual({ digits: code('1_3___'), focusIndex: 1 });
  });

  it('treats several digits at once (autofill) as a paste', () => {
    expect(typeIntoCode(emptyCode(), 0, '482913')).toEqual({ digits: code('482913'), focusIndex: 5 });
    expect(typeIntoCode(code('1_____'), 1, '234')).toEqual({ digits: code('1234__'), focusIndex: 4 });
  });
});

describe('backspace', () => {
  it('removes the digit of a filled box and shifts the following digits left', () => {
    expect(backspaceInCode(code('123456'), 2)).toEqual({ digits: code('12456_'), focusIndex: 2 });
  });

  it('in an empty box removes the previous digit and moves focus back', () => {
    expect(backspaceInCode(code('12____'), 2)).toEqual({ digits: code('1_____'), focusIndex: 1 });
    expect(backspaceInCode(code('1_3___'), 1)).toEqual({ digits: code('_3____'), focusIndex: 0 });
  });

  it('does nothing in the first empty box', () => {
    expect(backspaceInCode(emptyCode(), 0)).toEqual({ digits: emptyCode(), focusIndex: 0 });
  });
});

describe('paste', () => {
  it('fills every box with a pasted 6-digit code, whichever box has focus', () => {
    expect(pasteIntoCode(emptyCode(), 3, '654321')).toEqual({ digits: code('654321'), focusIndex: 5 });
    expect(pasteIntoCode(code('9_____'), 2, ' 65 43-21 ')).toEqual({ digits: code('654321'), focusIndex: 5 });
  });

  it('fills from the focused box when fewer digits are pasted', () => {
    expect(pasteIntoCode(emptyCode(), 2, '78')).toEqual({ digits: code('__78__'), focusIndex: 4 });
  });

  it('ignores a paste without digits and truncates a longer one', () => {
    expect(pasteIntoCode(code('1_____'), 1, 'hola')).toEqual({ digits: code('1_____'), focusIndex: 1 });
    expect(pasteIntoCode(emptyCode(), 0, '12345678').digits).toEqual(code('123456'));
  });
});

it('knows when the code is complete', () => {
  expect(isCodeComplete(code('123456'))).toBe(true);
  expect(isCodeComplete(code('12345_'))).toBe(false);
  expect(codeValue(code('123456'))).toBe('123456');
});
