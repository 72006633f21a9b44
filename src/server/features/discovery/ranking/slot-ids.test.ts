import { describe, expect, it } from 'vitest';
import { createSlotIds } from './slot-ids.ts';

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A tiny deterministic generator (the test repeats exactly). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('slot ids', () => {
  it('agree with a Map through inserts, deletes, growth and reordering', () => {
    const next = random(7);
    let capacity = 8;
    const ids = createSlotIds(capacity);
    const model = new Map<string, number>();
    const free: number[] = [];
    let used = 0;
    const check = () => {
      expect(ids.size).toBe(model.size);
      for (const [id, slot] of model) {
        expect(ids.slotOf(id)).toBe(slot);
        expect(ids.idAt(slot)).toBe(id);
      }
    };
    for (let step = 0; step < 4000; step += 1) {
      // Few distinct ids: deletes and re-inserts hit long probe runs in a small table.
      const id = uuid(Math.floor(next() * 300));
      if (model.has(id) && next() < 0.5) {
        free.push(model.get(id) as number);
        model.delete(id);
        ids.delete(id);
        expect(ids.slotOf(id)).toBe(-1);
      } else if (!model.has(id)) {
        let slot = free.pop();
        if (slot === undefined) {
          if (used === capacity) {
            capacity *= 2;
            ids.grow(capacity);
          }
          slot = used;
          used += 1;
        }
        ids.set(id, slot);
        model.set(id, slot);
      }
      if (step % 500 === 499) {
        // Compaction: the live slots renumbered 0…n-1 in a shuffled order.
        const live = [...model.entries()].sort(() => next() - 0.5);
        ids.reorder(Int32Array.from(live.map(([, slot]) => slot)), Math.max(16, live.length));
        model.clear();
        live.forEach(([id], i) => {
          model.set(id, i);
        });
        capacity = Math.max(16, live.length);
        used = live.length;
        free.length = 0;
      }
      if (step % 97 === 0) check();
    }
    check();
    expect(ids.slotOf('not-a-uuid')).toBe(-1);
  });

  it('compare a slot with an id in string order', () => {
    const ids = createSlotIds(4);
    ids.set(uuid(5), 0);
    expect(Math.sign(ids.compareAt(0, uuid(4)))).toBe(1);
    expect(ids.compareAt(0, uuid(5))).toBe(0);
    expect(Math.sign(ids.compareAt(0, uuid(6)))).toBe(-1);
    expect(Math.sign(ids.compareAt(0, 'f'))).toBe(-1);
    expect(Math.sign(ids.compareAt(0, ''))).toBe(1);
    ids.set(uuid(9), 1);
    expect(Math.sign(ids.compareSlots(0, 1))).toBe(-1);
    expect(Math.sign(ids.compareSlots(1, 0))).toBe(1);
    expect(ids.compareSlots(1, 1)).toBe(0);
  });
});
