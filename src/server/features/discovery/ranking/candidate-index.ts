// Over 450 lines on purpose: one closure owns the typed arrays, and rank() reads them as its own locals in the hot loop.
/**
 * The per-node candidate index (docs/decisions/0022): what the deck filters and ranks on for
 * every active, visible profile, in typed arrays (one slot per profile), bucketed by a 0.1° grid
 * cell, and ranked in JavaScript with the shared score (`compatibilityPoints`). No I/O: the
 * repository loads it, the change feed keeps it fresh, the service asks it for a viewer's ranked
 * candidates and still reads the swiped and blocked ids and the shown rows from the database.
 *
 * A grid rather than a k-d tree (kdbush, flatbush): those are static — a moved or new profile
 * would mean a rebuild or an overlay — while a grid cell is a list a profile joins and leaves in
 * O(1). At the densities that matter (a city) the cells of a viewer's box hold about the same
 * points a k-d tree range query would visit.
 */
import {
  type CompatibilityFeatures,
  compatibilityPoints,
  dayPartsMask,
  scoreOfPoints,
} from '#shared/discovery/compatibility';
import { EARTH_RADIUS_KM } from '#shared/discovery/distance';
import type { DeckFilters } from './deck-filters.ts';
import { boundingBox, dayNumber } from './deck-geometry.ts';
import { createSlotIds } from './slot-ids.ts';

/** [candidate userId, score, distance km] in deck order (the stored deck's entries). */
export type IndexEntry = [string, number, number];

/** Where a chunk continues from: the last entry of the previous one. */
export type IndexKey = { score: number; distanceKm: number; userId: string };

/** A profile as the index keeps it. */
export type IndexedProfile = {
  userId: string;
  latitude: number;
  longitude: number;
  gender: string | null;
  /** "YYYY-MM-DD" */
  birthDate: string;
  genderPreference: string;
  ageMin: number;
  ageMax: number;
  maxDistanceKm: number;
  features: CompatibilityFeatures;
};

/** The viewer's side of the mutual rules (from the viewer's fresh row). */
export type IndexViewer = {
  userId: string;
  latitude: number;
  longitude: number;
  gender: string | null;
  age: number;
  genderPreference: string;
  maxDistanceKm: number;
  /** Candidates' birth dates allowed by the viewer's age range: youngest ≥ date > oldestExclusive. */
  youngestBirthDate: string;
  oldestBirthDateExclusive: string;
  /** The viewer's «Nivel de experiencia» and «Horario preferido» (deck-filters.ts). */
  filters: DeckFilters;
  features: CompatibilityFeatures;
};

const RAD = Math.PI / 180;
/** Grid cells of 0.1° (about 11 × 8 km in Spain). */
const CELLS_PER_DEGREE = 10;
const GRID_COLUMNS = 360 * CELLS_PER_DEGREE + 1;
const MAX_SCORE = 100;

const cellRow = (latitude: number) => Math.floor((latitude + 90) * CELLS_PER_DEGREE);
const cellColumn = (longitude: number) => Math.floor((longitude + 180) * CELLS_PER_DEGREE);

export type CandidateIndex = ReturnType<typeof createCandidateIndex>;

export function createCandidateIndex(initialCapacity = 1024) {
  let capacity = Math.max(16, initialCapacity);
  let latitude = new Float64Array(capacity);
  let longitude = new Float64Array(capacity);
  let cosLatitude = new Float64Array(capacity);
  let cell = new Int32Array(capacity);
  let positionInCell = new Int32Array(capacity);
  let gender = new Uint8Array(capacity);
  let genderPreference = new Uint8Array(capacity);
  let birthDay = new Int32Array(capacity);
  let ageMin = new Uint8Array(capacity);
  let ageMax = new Uint8Array(capacity);
  let maxDistance = new Uint16Array(capacity);
  let sports = new Int32Array(capacity);
  let availability = new Int32Array(capacity);
  let goals = new Int32Array(capacity);
  let schedule = new Int32Array(capacity);
  let motivation = new Int32Array(capacity);
  let experience = new Int8Array(capacity);
  let commitment = new Int8Array(capacity);
  let frequency = new Int8Array(capacity);
  let social = new Int8Array(capacity);
  let gym: string[] = new Array(capacity);

  // The ids off the heap (slot-ids.ts): no string or map entry per profile for the GC to mark.
  const ids = createSlotIds(capacity);
  const freeSlots: number[] = [];
  let used = 0;
  const cells = new Map<number, number[]>();
  // Gender and gender-preference strings share one code table so the two compare; 0 is "none".
  const codes = new Map<string, number>();
  const codeOf = (value: string | null): number => {
    if (value === null || value === '') return 0;
    let code = codes.get(value);
    if (code === undefined) {
      code = codes.size + 1;
      if (code > 255) throw new Error('too many distinct genders');
      codes.set(value, code);
    }
    return code;
  };
  const BOTH = codeOf('both');
  const gymNames = new Map<string, string>();
  const intern = (name: string) => {
    const known = gymNames.get(name);
    if (known !== undefined) return known;
    gymNames.set(name, name);
    return name;
  };

  /**
   * New arrays of `nextCapacity` slots: the same slots in place (`order` null: growing), or slot
   * `order[i]` moved to slot i (compacting). The one list of every per-slot array.
   */
  function relayout(nextCapacity: number, order: Int32Array | null) {
    const move = <T extends Float64Array | Int32Array | Uint8Array | Uint16Array | Int8Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(nextCapacity);
      if (order === null) next.set(array);
      else for (let i = 0; i < order.length; i += 1) next[i] = array[order[i] as number] as number;
      return next;
    };
    const moveList = <T>(list: T[]): T[] => {
      if (order === null) {
        list.length = nextCapacity;
        return list;
      }
      const next = new Array<T>(nextCapacity);
      for (let i = 0; i < order.length; i += 1) next[i] = list[order[i] as number] as T;
      return next;
    };
    latitude = move(latitude);
    longitude = move(longitude);
    cosLatitude = move(cosLatitude);
    cell = move(cell);
    positionInCell = move(positionInCell);
    gender = move(gender);
    genderPreference = move(genderPreference);
    birthDay = move(birthDay);
    ageMin = move(ageMin);
    ageMax = move(ageMax);
    maxDistance = move(maxDistance);
    sports = move(sports);
    availability = move(availability);
    goals = move(goals);
    schedule = move(schedule);
    motivation = move(motivation);
    experience = move(experience);
    commitment = move(commitment);
    frequency = move(frequency);
    social = move(social);
    if (order === null) ids.grow(nextCapacity);
    else ids.reorder(order, nextCapacity);
    gym = moveList(gym);
    capacity = nextCapacity;
  }

  const grow = () => relayout(capacity * 2, null);

  function leaveCell(slot: number) {
    const members = cells.get(cell[slot] as number) as number[];
    const position = positionInCell[slot] as number;
    const last = members.pop() as number;
    if (last !== slot) {
      members[position] = last;
      positionInCell[last] = position;
    }
    if (members.length === 0) cells.delete(cell[slot] as number);
  }

  function joinCell(slot: number, key: number) {
    let members = cells.get(key);
    if (!members) {
      members = [];
      cells.set(key, members);
    }
    cell[slot] = key;
    positionInCell[slot] = members.length;
    members.push(slot);
  }

  /**
   * The viewer's excluded ids as marks on their slots, set and cleared by each ranking: a test of
   * a byte per candidate instead of reading its id string (a cache miss each: the strings lie in
   * load order, not cell order) and hashing it into the excluded set.
   */
  let excludedMarks = new Uint8Array(0);
  let scratchSlots = new Int32Array(4096);
  let scratchScores = new Uint8Array(4096);
  let scratchKm = new Float64Array(4096);
  const growScratch = () => {
    const wider = <T extends Int32Array | Uint8Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(array.length * 2);
      next.set(array);
      return next;
    };
    scratchSlots = wider(scratchSlots);
    scratchScores = wider(scratchScores);
    scratchKm = wider(scratchKm);
  };

  /** Scratch features of the candidate being scored (compatibilityPoints takes two objects; no allocation per candidate). */
  const candidate: CompatibilityFeatures = {
    sports: 0,
    availability: 0,
    goals: 0,
    schedule: 0,
    motivation: 0,
    experience: -1,
    commitment: -1,
    frequency: 0,
    social: -1,
    gym: '',
  };

  return {
    get size() {
      return ids.size;
    },

    has(userId: string): boolean {
      return ids.slotOf(userId) >= 0;
    },

    /** Adds or replaces a profile (a candidate: active and visible). */
    upsert(profile: IndexedProfile): void {
      let slot = ids.slotOf(profile.userId);
      if (slot < 0) {
        const free = freeSlots.pop();
        if (free === undefined) {
          if (used === capacity) grow();
          slot = used;
          used += 1;
        } else {
          slot = free;
        }
        ids.set(profile.userId, slot);
      } else {
        leaveCell(slot);
      }
      latitude[slot] = profile.latitude;
      longitude[slot] = profile.longitude;
      cosLatitude[slot] = Math.cos(profile.latitude * RAD);
      joinCell(slot, cellRow(profile.latitude) * GRID_COLUMNS + cellColumn(profile.longitude));
      gender[slot] = codeOf(profile.gender);
      genderPreference[slot] = codeOf(profile.genderPreference);
      birthDay[slot] = dayNumber(profile.birthDate);
      ageMin[slot] = profile.ageMin;
      ageMax[slot] = profile.ageMax;
      maxDistance[slot] = profile.maxDistanceKm;
      const f = profile.features;
      sports[slot] = f.sports;
      availability[slot] = f.availability;
      goals[slot] = f.goals;
      schedule[slot] = f.schedule;
      motivation[slot] = f.motivation;
      experience[slot] = f.experience;
      commitment[slot] = f.commitment;
      frequency[slot] = f.frequency;
      social[slot] = f.social;
      gym[slot] = intern(f.gym);
    },

    /** Takes a profile out (hidden, inactive, deleted); unknown ids are ignored. */
    remove(userId: string): void {
      const slot = ids.slotOf(userId);
      if (slot < 0) return;
      leaveCell(slot);
      ids.delete(userId);
      freeSlots.push(slot);
    },

    /**
     * Lays the slots out cell by cell, so a ranking reads each cell's profiles from consecutive
     * memory instead of one cache miss per array per profile (slots are first given in load
     * order, which is user id order: random in space). Done after a load; later upserts append.
     */
    compact(): void {
      const order = new Int32Array(ids.size);
      let next = 0;
      for (const members of cells.values()) {
        for (const slot of members) {
          order[next] = slot;
          next += 1;
        }
      }
      relayout(Math.max(16, order.length), order);
      let start = 0;
      for (const members of cells.values()) {
        for (let i = 0; i < members.length; i += 1) {
          const slot = start + i;
          members[i] = slot;
          positionInCell[slot] = i;
        }
        start += members.length;
      }
      freeSlots.length = 0;
      used = order.length;
    },

    /**
     * The viewer's candidates in deck order (score desc, distance asc, user id), after `after` when
     * given, at most `size`; `total` counts every candidate (whatever `after`). The mutual rules
     * of the SQL query: not the viewer, not excluded (swiped, blocked either way), each one's
     * gender preference and age range accepting the other, distance within both maxima; and the
     * viewer's own filters (level, part of the day).
     */
    rank(viewer: IndexViewer, excluded: ReadonlySet<string>, after: IndexKey | null, size: number) {
      const box = boundingBox(viewer.latitude, viewer.longitude, viewer.maxDistanceKm);
      const minRow = cellRow(box.minLatitude);
      const maxRow = cellRow(box.maxLatitude);
      const minColumn = box.minLongitude === null ? 0 : cellColumn(box.minLongitude);
      const maxColumn = box.maxLongitude === null ? GRID_COLUMNS - 1 : cellColumn(box.maxLongitude);
      const minLongitude = box.minLongitude ?? -Infinity;
      const maxLongitude = box.maxLongitude ?? Infinity;
      const wantedGender = viewer.genderPreference === 'both' ? -1 : codeOf(viewer.genderPreference);
      const viewerGender = viewer.gender === null ? -1 : codeOf(viewer.gender);
      const youngest = dayNumber(viewer.youngestBirthDate);
      const oldestExclusive = dayNumber(viewer.oldestBirthDateExclusive);
      const age = viewer.age;
      const viewerLatitude = viewer.latitude;
      const viewerLongitude = viewer.longitude;
      const viewerCos = Math.cos(viewerLatitude * RAD);
      const viewerMax = viewer.maxDistanceKm;
      const features = viewer.features;
      const wantedExperience = viewer.filters.experienceRank;
      const wantedDayParts = viewer.filters.dayParts;

      // The member lists of the cells in the box, then one loop over them with every array in a
      // local constant (a closure over the reassignable arrays re-read each one per candidate).
      const lists: (readonly number[])[] = [];
      if (maxColumn - minColumn + 1 > 0 && (maxRow - minRow + 1) * (maxColumn - minColumn + 1) <= cells.size) {
        for (let row = minRow; row <= maxRow; row += 1) {
          for (let column = minColumn; column <= maxColumn; column += 1) {
            const members = cells.get(row * GRID_COLUMNS + column);
            if (members) lists.push(members);
          }
        }
      } else {
        // A box wider than the occupied cells (a huge radius, no longitude bound): visit the cells that exist.
        for (const [key, members] of cells) {
          const row = Math.floor(key / GRID_COLUMNS);
          const column = key % GRID_COLUMNS;
          if (row >= minRow && row <= maxRow && column >= minColumn && column <= maxColumn) lists.push(members);
        }
      }
      const genders = gender;
      const acceptedGenders = genderPreference;
      const birthDays = birthDay;
      const agesMin = ageMin;
      const agesMax = ageMax;
      const latitudes = latitude;
      const longitudes = longitude;
      const cosines = cosLatitude;
      const maxDistances = maxDistance;
      const experiences = experience;
      const schedules = schedule;
      const availabilities = availability;
      const afterScore = after ? after.score : MAX_SCORE + 1;
      const afterKm = after ? after.distanceKm : 0;
      const afterId = after ? after.userId : '';
      const viewerSlot = ids.slotOf(viewer.userId);
      if (excludedMarks.length < capacity) excludedMarks = new Uint8Array(capacity);
      const marks = excludedMarks;
      const marked: number[] = [];
      for (const id of excluded) {
        const slot = ids.slotOf(id);
        if (slot >= 0 && marks[slot] === 0) {
          marks[slot] = 1;
          marked.push(slot);
        }
      }

      // The candidates found, as parallel scratch arrays (no object per candidate): slot, score, km.
      let found = 0;
      const perScore = new Int32Array(MAX_SCORE + 1);
      let total = 0;
      const minLatitude = box.minLatitude;
      const maxLatitude = box.maxLatitude;
      for (let list = 0; list < lists.length; list += 1) {
        const members = lists[list] as readonly number[];
        for (let i = 0; i < members.length; i += 1) {
          const slot = members[i] as number;
          // The one-byte and four-byte filters first: most candidates fail one of them.
          if (wantedGender !== -1 && genders[slot] !== wantedGender) continue;
          const accepts = acceptedGenders[slot] as number;
          if (accepts !== BOTH && (viewerGender === -1 || accepts !== viewerGender)) continue;
          const born = birthDays[slot] as number;
          if (born > youngest || born <= oldestExclusive) continue;
          if ((agesMin[slot] as number) > age || (agesMax[slot] as number) < age) continue;
          // The viewer's own filters (passesDeckFilters, on the arrays).
          if (wantedExperience >= 0 && experiences[slot] !== wantedExperience) continue;
          if (
            wantedDayParts !== 0 &&
            (dayPartsMask(schedules[slot] as number, availabilities[slot] as number) & wantedDayParts) === 0
          ) {
            continue;
          }
          const lat = latitudes[slot] as number;
          if (lat < minLatitude || lat > maxLatitude) continue;
          const lon = longitudes[slot] as number;
          if (lon < minLongitude || lon > maxLongitude) continue;
          const limit = Math.min(viewerMax, maxDistances[slot] as number);
          const dLat = (lat - viewerLatitude) * RAD;
          const dLon = (lon - viewerLongitude) * RAD;
          // The shared haversineKm's expression, so the page's re-check computes the same kilometres.
          const h = Math.sin(dLat / 2) ** 2 + viewerCos * (cosines[slot] as number) * Math.sin(dLon / 2) ** 2;
          const km = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
          if (km > limit) continue;
          if (slot === viewerSlot || marks[slot] === 1) continue;
          candidate.sports = sports[slot] as number;
          candidate.availability = availability[slot] as number;
          candidate.goals = goals[slot] as number;
          candidate.schedule = schedule[slot] as number;
          candidate.motivation = motivation[slot] as number;
          candidate.experience = experience[slot] as number;
          candidate.commitment = commitment[slot] as number;
          candidate.frequency = frequency[slot] as number;
          candidate.social = social[slot] as number;
          candidate.gym = gym[slot] as string;
          const score = scoreOfPoints(compatibilityPoints(features, candidate));
          total += 1;
          // After the key in deck order, without an entry per candidate. Ranks of equal score and
          // distance keep the uuid order the SQL query uses (byte order = lower-case hex order).
          if (
            after &&
            !(
              score < afterScore ||
              (score === afterScore && (km > afterKm || (km === afterKm && ids.compareAt(slot, afterId) > 0)))
            )
          ) {
            continue;
          }
          if (found === scratchSlots.length) growScratch();
          scratchSlots[found] = slot;
          scratchScores[found] = score;
          scratchKm[found] = km;
          found += 1;
          perScore[score] = (perScore[score] as number) + 1;
        }
      }
      for (const slot of marked) marks[slot] = 0;
      // Only the score buckets that fill the chunk are sorted.
      let lowest = MAX_SCORE;
      for (let kept = 0; lowest >= 0; lowest -= 1) {
        kept += perScore[lowest] as number;
        if (kept >= size) break;
      }
      // Sorted as positions in the scratch arrays (deck order: score desc, km asc, id), so an id
      // string is made only for the entries returned.
      const kept: number[] = [];
      for (let i = 0; i < found; i += 1) if ((scratchScores[i] as number) >= lowest) kept.push(i);
      const scores = scratchScores;
      const kms = scratchKm;
      const slots = scratchSlots;
      kept.sort(
        (x, y) =>
          (scores[y] as number) - (scores[x] as number) ||
          (kms[x] as number) - (kms[y] as number) ||
          ids.compareSlots(slots[x] as number, slots[y] as number),
      );
      const entries = kept
        .slice(0, size)
        .map((i): IndexEntry => [ids.idAt(slots[i] as number), scores[i] as number, kms[i] as number]);
      return { entries, total };
    },

    /** Bytes held by the typed arrays, and an estimate for the id strings, maps and cell lists. */
    memory() {
      const typed = [
        latitude,
        longitude,
        cosLatitude,
        cell,
        positionInCell,
        gender,
        genderPreference,
        birthDay,
        ageMin,
        ageMax,
        maxDistance,
        sports,
        availability,
        goals,
        schedule,
        motivation,
        experience,
        commitment,
        frequency,
        social,
      ].reduce((sum, array) => sum + array.byteLength, ids.byteLength());
      // Per profile: its gym array slot and its place in a cell list (8 B each).
      const estimated = ids.size * 16 + capacity * 8;
      return { typedBytes: typed, estimatedBytes: typed + estimated, capacity };
    },
  };
}
