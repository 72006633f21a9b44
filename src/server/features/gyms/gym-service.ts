import * as v from 'valibot';
import {
  DISCOVERY_MESSAGES,
  GYM_SEARCH_MIN_CHARS,
  GYM_SEARCH_RESULTS_MAX,
  GYM_SEARCH_TOOL,
  GymSearchArgumentsSchema,
  type GymSuggestion,
  ToolCallRequestSchema,
} from '#shared/discovery/discovery-schemas';
import { normalizeGymName } from '#shared/discovery/compatibility';
import { snapToGrid } from '#shared/discovery/distance';
import { GYM_NAME_MAX, GYM_NAME_MIN } from '#shared/profile/options';
import { badRequest } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { parseInput } from '../../validation.ts';
import { GYM_SEEDS } from './gym-data.ts';
import type { GymRepository } from './gym-repository.ts';

export type GymService = ReturnType<typeof createGymService>;

/** Gym suggestions for the wizard (spec 001 §2, step 2; `POST /api/mcp/tool`, tool search_gyms). */
export function createGymService(deps: { gyms: GymRepository; logger: Logger }) {
  const { gyms } = deps;
  return {
    /** Adds the seeded chains once (a no-op when they are there; concurrent starts are harmless). */
    async ensureSeeded(): Promise<void> {
      if ((await gyms.countSeeded()) >= GYM_SEEDS.length) return;
      await gyms.insertMissing(
        GYM_SEEDS.map((seed) => ({
          ...seed,
          nameKey: normalizeGymName(seed.name),
          cityKey: normalizeGymName(seed.city),
          source: 'seed' as const,
        })),
      );
    },

    /**
     * The tool call: only search_gyms exists; a query under 3 characters finds nothing. With a
     * location, gyms are ranked by name similarity plus nearness to its coordinates, or plus being
     * in its city (gym-repository.ts `search`). Arguments of any other shape, and any failure of
     * the search itself, answer an empty list (spec 001 §7: "failure yields an empty list").
     */
    async callTool(body: unknown): Promise<{ gyms: GymSuggestion[] }> {
      const call = parseInput(ToolCallRequestSchema, body);
      if (call.tool_name !== GYM_SEARCH_TOOL) throw badRequest(DISCOVERY_MESSAGES.unknownTool, 'UNKNOWN_TOOL');
      const parsed = v.safeParse(GymSearchArgumentsSchema, call.arguments ?? {});
      if (!parsed.success) return { gyms: [] };
      const args = parsed.output;
      const query = normalizeGymName(args.query);
      if ([...query].length < GYM_SEARCH_MIN_CHARS) return { gyms: [] };
      const { latitude, longitude, city } = args.location ?? {};
      // Ranked around the ~1 km cell, never the raw position (QUALITY 9), whatever the client sent.
      const near = {
        origin: latitude != null && longitude != null ? snapToGrid(latitude, longitude) : null,
        cityKey: city ? normalizeGymName(city) : null,
      };
      let found: Awaited<ReturnType<GymRepository['search']>>;
      try {
        found = await gyms.search(query, near, GYM_SEARCH_RESULTS_MAX);
      } catch (error) {
        deps.logger.warn({ err: error }, 'gym search failed; answering an empty list');
        return { gyms: [] };
      }
      return {
        gyms: found.map((gym) => ({
          name: gym.name,
          address: gym.address,
          city: gym.city,
          ...(gym.chain ? { chain: gym.chain } : {}),
          ...(gym.distanceKm === null ? {} : { distanceKm: Math.round(gym.distanceKm * 10) / 10 }),
        })),
      };
    },

    /** A gym someone typed in their profile joins the suggestions (as user-added). */
    async remember(name: string, city: string | null): Promise<void> {
      const clean = name.trim();
      const nameKey = normalizeGymName(clean);
      if ([...clean].length < GYM_NAME_MIN || [...clean].length > GYM_NAME_MAX || nameKey.length < GYM_NAME_MIN) return;
      await gyms.insertMissing([
        {
          name: clean,
          nameKey,
          address: '',
          city: city ?? '',
          cityKey: normalizeGymName(city ?? ''),
          chain: null,
          latitude: null,
          longitude: null,
          source: 'user',
        },
      ]);
    },
  };
}
