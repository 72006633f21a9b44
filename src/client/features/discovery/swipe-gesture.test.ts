import { describe, expect, it } from 'vitest';
import { dragIntent, dragRotation, swipeActionForDrag } from './swipe-gesture.ts';

describe('swipe gesture', () => {
  it('needs 50 px horizontally', () => {
    expect(swipeActionForDrag(49)).toBeNull();
    expect(swipeActionForDrag(-49)).toBeNull();
    expect(swipeActionForDrag(50)).toBe('like');
    expect(swipeActionForDrag(-50)).toBe('dislike');
    expect(swipeActionForDrag(180)).toBe('like');
  });
  it('ignores mostly vertical drags (scrolling)', () => {
    expect(swipeActionForDrag(60, 120)).toBeNull();
    expect(swipeActionForDrag(-80, 40)).toBe('dislike');
  });
  it('ignores nonsense', () => {
    expect(swipeActionForDrag(Number.NaN)).toBeNull();
  });
  it('tilts and shows intent within bounds', () => {
    expect(dragRotation(1000)).toBe(15);
    expect(dragRotation(-1000)).toBe(-15);
    expect(dragIntent(0)).toBe(0);
    expect(dragIntent(500)).toBe(1);
  });
});
