/**
 * The candidate index's user ids, off the JavaScript heap (docs/decisions/0022 amendment 19): each
 * slot's id as 36 ASCII bytes in one Uint8Array, and the id → slot lookup as an open-addressing
 * hash table (linear probing, backward-shift deletion) in one Int32Array. A Map of id strings held
 * one string and one entry per profile, which every major GC marks and moves: at 1M profiles a
 * full collection took most of a second. Here a collection sees two typed arrays whatever the
 * count. An id string is made only when asked (`idAt`: the entries a ranking keeps).
 */

/** Ids are canonical uuids ("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"). */
export const ID_LENGTH = 36;

const EMPTY = 0;

/** FNV-1a over the id's 36 character codes. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ID_LENGTH; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hashAt(bytes: Uint8Array, offset: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ID_LENGTH; i += 1) h = Math.imul(h ^ (bytes[offset + i] as number), 0x01000193);
  return h >>> 0;
}

/** A power of two with room for `slots` at a load of at most one half. */
const tableSizeFor = (slots: number) => {
  let size = 16;
  while (size < slots * 2) size *= 2;
  return size;
};

export type SlotIds = ReturnType<typeof createSlotIds>;

export function createSlotIds(initialCapacity: number) {
  let capacity = initialCapacity;
  let bytes = new Uint8Array(capacity * ID_LENGTH);
  /** slot + 1, or EMPTY. */
  let table = new Int32Array(tableSizeFor(capacity));
  let mask = table.length - 1;
  let count = 0;

  const matches = (slot: number, id: string): boolean => {
    const offset = slot * ID_LENGTH;
    for (let i = 0; i < ID_LENGTH; i += 1) if (bytes[offset + i] !== id.charCodeAt(i)) return false;
    return true;
  };

  /** The table's position of `id`, or of the empty cell where it would go (as -1 - position). */
  const probe = (id: string): number => {
    let position = hashOf(id) & mask;
    for (;;) {
      const entry = table[position] as number;
      if (entry === EMPTY) return -1 - position;
      if (matches(entry - 1, id)) return position;
      position = (position + 1) & mask;
    }
  };

  const place = (slot: number) => {
    let position = hashAt(bytes, slot * ID_LENGTH) & mask;
    while (table[position] !== EMPTY) position = (position + 1) & mask;
    table[position] = slot + 1;
  };

  /** A new table for the slots listed in `slots` (their bytes already in place). */
  const rebuild = (slots: Iterable<number>) => {
    table = new Int32Array(tableSizeFor(capacity));
    mask = table.length - 1;
    for (const slot of slots) place(slot);
  };

  const liveSlots = function* (source: Int32Array) {
    for (const entry of source) if (entry !== EMPTY) yield entry - 1;
  };

  return {
    get size() {
      return count;
    },

    /** The slot of `id`, or -1. */
    slotOf(id: string): number {
      if (id.length !== ID_LENGTH) return -1;
      const position = probe(id);
      return position < 0 ? -1 : (table[position] as number) - 1;
    },

    /** Gives `id` to `slot` (a slot below the capacity, holding no id). */
    set(id: string, slot: number): void {
      if (id.length !== ID_LENGTH) throw new Error(`not a uuid: ${id}`);
      const position = probe(id);
      if (position >= 0) throw new Error(`id already indexed: ${id}`);
      const offset = slot * ID_LENGTH;
      for (let i = 0; i < ID_LENGTH; i += 1) {
        const code = id.charCodeAt(i);
        if (code > 0x7f) throw new Error(`not a uuid: ${id}`);
        bytes[offset + i] = code;
      }
      table[-1 - position] = slot + 1;
      count += 1;
    },

    /** Takes `id` out; its slot's bytes are left for the next owner to overwrite. */
    delete(id: string): void {
      if (id.length !== ID_LENGTH) return;
      let hole = probe(id);
      if (hole < 0) return;
      count -= 1;
      // Backward-shift deletion: move later entries of the run into the hole when their home allows.
      let position = hole;
      for (;;) {
        table[hole] = EMPTY;
        for (;;) {
          position = (position + 1) & mask;
          const entry = table[position] as number;
          if (entry === EMPTY) return;
          const home = hashAt(bytes, (entry - 1) * ID_LENGTH) & mask;
          // The entry may move back into the hole unless its home lies cyclically in (hole, position].
          const stays = hole <= position ? hole < home && home <= position : hole < home || home <= position;
          if (!stays) {
            table[hole] = entry;
            hole = position;
            break;
          }
        }
      }
    },

    /** The id of `slot` as a string. */
    idAt(slot: number): string {
      const offset = slot * ID_LENGTH;
      return String.fromCharCode.apply(null, bytes.subarray(offset, offset + ID_LENGTH) as unknown as number[]);
    },

    /** The sign of (id of `slot`) compared with `id` in code-unit order (the order of `<` on strings). */
    compareAt(slot: number, id: string): number {
      const offset = slot * ID_LENGTH;
      const length = Math.min(ID_LENGTH, id.length);
      for (let i = 0; i < length; i += 1) {
        const difference = (bytes[offset + i] as number) - id.charCodeAt(i);
        if (difference !== 0) return difference;
      }
      return ID_LENGTH - id.length;
    },

    /** The sign of (id of slot `a`) compared with (id of slot `b`), in the same order. */
    compareSlots(a: number, b: number): number {
      const offsetA = a * ID_LENGTH;
      const offsetB = b * ID_LENGTH;
      for (let i = 0; i < ID_LENGTH; i += 1) {
        const difference = (bytes[offsetA + i] as number) - (bytes[offsetB + i] as number);
        if (difference !== 0) return difference;
      }
      return 0;
    },

    /** Room for `nextCapacity` slots, every slot keeping its id. */
    grow(nextCapacity: number): void {
      const next = new Uint8Array(nextCapacity * ID_LENGTH);
      next.set(bytes);
      bytes = next;
      capacity = nextCapacity;
      rebuild(liveSlots(table));
    },

    /** Slot `order[i]` moves to slot i (compaction); `nextCapacity` slots afterwards. */
    reorder(order: Int32Array, nextCapacity: number): void {
      const next = new Uint8Array(nextCapacity * ID_LENGTH);
      for (let i = 0; i < order.length; i += 1) {
        const from = (order[i] as number) * ID_LENGTH;
        next.set(bytes.subarray(from, from + ID_LENGTH), i * ID_LENGTH);
      }
      bytes = next;
      capacity = nextCapacity;
      count = order.length;
      rebuild(Array.from(order, (_, i) => i));
    },

    /** Bytes held (the id bytes and the table). */
    byteLength(): number {
      return bytes.byteLength + table.byteLength;
    },
  };
}
