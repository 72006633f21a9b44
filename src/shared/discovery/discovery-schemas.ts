/**
 * Requests and responses of discovery (spec 001 §7): recommendations, swipes, matches, gym search
 * and the photo calls. Requests are strict (unknown keys refused with a Spanish message); the
 * server answers with exactly these shapes.
 */
import * as v from 'valibot';
import { GYM_SEARCH_MIN_CHARS, MAX_PHOTOS, RECOMMENDED_PAGE_SIZE } from '../profile/options.ts';
import { PhotoKeySchema } from '../profile/profile-schema.ts';
import type { PublicProfile } from '../profile/profile-views.ts';

export const DISCOVERY_MESSAGES = {
  profileNotFound: 'Perfil no encontrado',
  profileExists: 'Ya tienes un perfil. Actualízalo en lugar de crear uno nuevo.',
  userNotFound: 'Usuario no encontrado',
  notOwnProfile: 'Solo puedes modificar tu propio perfil',
  notOwnData: 'No tienes permiso para ver estos datos',
  profileForbidden: 'No tienes permiso para ver este perfil',
  photoPermission: 'No tienes permiso para subir fotos a este perfil.',
  photoTooLarge: 'Las imágenes son demasiado grandes. El tamaño máximo permitido es 5MB por imagen.',
  photoFormat: 'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.',
  photoTooManyPixels:
    'La imagen tiene demasiados píxeles: el máximo es de 40 megapíxeles (por ejemplo, 8000 × 5000). Usa una imagen de menor resolución.',
  photoRateLimit: 'Has alcanzado el límite de subidas. Intenta más tarde.',
  swipeRateLimited: 'Estás deslizando demasiado rápido. Espera un momento.',
  photosMax: 'Puedes subir un máximo de 6 fotos',
  photoMissing: 'Selecciona al menos una imagen',
  photoInvalid: 'La foto no es válida',
  photoNotFound: 'Foto no encontrada',
  photoOrder: 'El orden de las fotos no coincide con las fotos del perfil',
  uploadFailed: 'Error al subir las fotos. Intenta de nuevo más tarde.',
  swipeInvalid: 'Acción no válida',
  swipeSelf: 'No puedes hacer swipe sobre tu propio perfil',
  swipeTargetMismatch: 'El usuario indicado no coincide',
  undoMatched:
    'Ya es un entrenamiento: no se puede deshacer. Si quieres, puedes deshacer el match desde Entrenamientos.',
  page: 'La página debe ser un número entero mayor que 0',
  limit: 'El límite debe ser un número entero entre 1 y 50',
  unknownTool: 'Herramienta no disponible',
  toolRequest: 'Petición de herramienta no válida',
  gymQuery: 'La búsqueda de gimnasios no es válida',
  noMatchesFound: 'no_matches_found',
  recommendationsFound: 'Perfiles recomendados obtenidos correctamente',
  matchesFound: 'Entrenamientos obtenidos correctamente',
  noMatches: 'Todavía no tienes entrenamientos',
} as const;

export const RECOMMENDED_PAGE_SIZE_MAX = 50;

/** A page or limit from the query string: digits only, then a bounded integer. */
function queryInteger(min: number, max: number, fallback: number, message: string) {
  return v.optional(
    v.pipe(
      v.string(message),
      v.maxLength(6, message),
      v.regex(/^\d+$/, message),
      v.transform(Number),
      v.integer(message),
      v.minValue(min, message),
      v.maxValue(max, message),
    ),
    String(fallback),
  );
}

/** `GET /api/profiles/{userId}/recommended?page&limit`. */
export const RecommendedQuerySchema = v.object({
  page: queryInteger(1, 100_000, 1, DISCOVERY_MESSAGES.page),
  limit: queryInteger(1, RECOMMENDED_PAGE_SIZE_MAX, RECOMMENDED_PAGE_SIZE, DISCOVERY_MESSAGES.limit),
});
export type RecommendedQuery = v.InferOutput<typeof RecommendedQuerySchema>;

export type RecommendedResponse = {
  success: true;
  profiles: PublicProfile[];
  /** 'no_matches_found' when the list is empty. */
  message: string;
  totalProfiles: number;
  currentPage: number;
  hasMore: boolean;
};

export const SWIPE_ACTIONS = ['dislike', 'like', 'superlike'] as const;
export type SwipeAction = (typeof SWIPE_ACTIONS)[number];
export type SwipeType = 'like' | 'superlike';

/** `POST /api/swipes/users/{id}/swipe`; `clientId` is the offline outbox's idempotency key. */
export const SwipeRequestSchema = v.strictObject(
  {
    target_user_id: v.pipe(
      v.string(DISCOVERY_MESSAGES.userNotFound),
      v.maxLength(64, DISCOVERY_MESSAGES.userNotFound),
      v.nonEmpty(DISCOVERY_MESSAGES.userNotFound),
    ),
    action: v.picklist(SWIPE_ACTIONS, DISCOVERY_MESSAGES.swipeInvalid),
    clientId: v.optional(
      v.pipe(
        v.string(DISCOVERY_MESSAGES.swipeInvalid),
        v.regex(/^[A-Za-z0-9_-]{1,64}$/, DISCOVERY_MESSAGES.swipeInvalid),
      ),
    ),
  },
  DISCOVERY_MESSAGES.swipeInvalid,
);
export type SwipeRequest = v.InferOutput<typeof SwipeRequestSchema>;

/**
 * `POST /api/swipes/users/{id}/undo` ("Deshacer", docs/decisions/0023): takes back the caller's
 * swipe on `target_user_id`. With `swipeClientId` only the swipe with that outbox id is taken back,
 * so a late replay of an undo never takes back a newer swipe of the same person.
 */
export const UndoSwipeRequestSchema = v.strictObject(
  {
    target_user_id: v.pipe(
      v.string(DISCOVERY_MESSAGES.userNotFound),
      v.maxLength(64, DISCOVERY_MESSAGES.userNotFound),
      v.nonEmpty(DISCOVERY_MESSAGES.userNotFound),
    ),
    swipeClientId: v.optional(
      v.pipe(
        v.string(DISCOVERY_MESSAGES.swipeInvalid),
        v.regex(/^[A-Za-z0-9_-]{1,64}$/, DISCOVERY_MESSAGES.swipeInvalid),
      ),
    ),
  },
  DISCOVERY_MESSAGES.swipeInvalid,
);
export type UndoSwipeRequest = v.InferOutput<typeof UndoSwipeRequestSchema>;

/** `undone` is false when there was nothing left to take back (already undone: a replay). */
export type UndoSwipeResponse = { success: true; undone: boolean };

export type MatchOtherUser = { userId: string; name: string; photos: string[] };

export type SwipeResponse = {
  success: true;
  match: boolean;
  matchData?: {
    matchId: string;
    conversationId: string;
    otherUser: MatchOtherUser;
    swipeType: SwipeType;
  };
};

export type MatchListItem = {
  matchId: string;
  conversationId: string;
  timestamp: string;
  otherUser: {
    userId: string;
    name: string;
    /** null when the person does not show their age (docs/decisions/0025). */
    age: number | null;
    photos: string[];
    location: { city: string | null };
    compatibilityScore: number;
    training: { goals: string[] };
  };
  /** The conversation's last message (the shape of a Conversation's lastMessage), or null before any. */
  lastMessage: { text: string; timestamp: string; senderId: string; read: boolean } | null;
  /** Matched within the last RECENT_MATCH_DAYS days. */
  isRecent: boolean;
};

export type MatchesResponse = { success: true; message: string; matches: MatchListItem[] };

/** The `match` event each of the two users receives (the realtime layer relays it). */
export type MatchEvent = {
  matchId: string;
  conversationId: string;
  otherUser: MatchOtherUser;
  swipeType: SwipeType;
  timestamp: string;
};

// ---------------------------------------------------------------------------------------------
// Gym search: `POST /api/mcp/tool`

export const GYM_SEARCH_TOOL = 'search_gyms';
export const GYM_SEARCH_QUERY_MAX = 100;
export const GYM_SEARCH_RESULTS_MAX = 10;

export const ToolCallRequestSchema = v.strictObject(
  {
    server_name: v.optional(
      v.pipe(v.string(DISCOVERY_MESSAGES.toolRequest), v.maxLength(100, DISCOVERY_MESSAGES.toolRequest)),
    ),
    tool_name: v.pipe(v.string(DISCOVERY_MESSAGES.toolRequest), v.maxLength(100, DISCOVERY_MESSAGES.toolRequest)),
    arguments: v.optional(v.unknown()),
  },
  DISCOVERY_MESSAGES.toolRequest,
);

const latitudeSchema = v.pipe(
  v.number(DISCOVERY_MESSAGES.gymQuery),
  v.minValue(-90, DISCOVERY_MESSAGES.gymQuery),
  v.maxValue(90, DISCOVERY_MESSAGES.gymQuery),
);
const longitudeSchema = v.pipe(
  v.number(DISCOVERY_MESSAGES.gymQuery),
  v.minValue(-180, DISCOVERY_MESSAGES.gymQuery),
  v.maxValue(180, DISCOVERY_MESSAGES.gymQuery),
);

/**
 * `arguments.location` as spec 001 §7 shows it: coordinates and/or a city. Coordinates come in
 * pairs; a city alone ranks that city's gyms first. Extra keys (an accuracy, a country) are ignored.
 */
export const GymSearchLocationSchema = v.pipe(
  v.custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input)),
  v.object(
    {
      latitude: v.optional(v.nullable(latitudeSchema)),
      longitude: v.optional(v.nullable(longitudeSchema)),
      city: v.optional(
        v.nullable(
          v.pipe(v.string(DISCOVERY_MESSAGES.gymQuery), v.trim(), v.maxLength(100, DISCOVERY_MESSAGES.gymQuery)),
        ),
      ),
    },
    DISCOVERY_MESSAGES.gymQuery,
  ),
  v.check((location) => (location.latitude == null) === (location.longitude == null), DISCOVERY_MESSAGES.gymQuery),
  v.check((location) => location.latitude != null || !!location.city, DISCOVERY_MESSAGES.gymQuery),
);

export const GymSearchArgumentsSchema = v.object(
  {
    query: v.pipe(
      v.string(DISCOVERY_MESSAGES.gymQuery),
      v.maxLength(GYM_SEARCH_QUERY_MAX, DISCOVERY_MESSAGES.gymQuery),
    ),
    location: v.optional(v.nullable(GymSearchLocationSchema)),
  },
  DISCOVERY_MESSAGES.gymQuery,
);
export type GymSearchArguments = v.InferOutput<typeof GymSearchArgumentsSchema>;

export { GYM_SEARCH_MIN_CHARS };

export type GymSuggestion = { name: string; address: string; city: string; chain?: string; distanceKm?: number };
export type GymSearchResponse = { success: true; gyms: GymSuggestion[] };

// ---------------------------------------------------------------------------------------------
// Photos

export type PhotoUploadResponse = { success: true; photoKeys: string[] };

/** `PUT /api/profiles/{id}/photos/order` (ours, docs/decisions/0005). */
export const PhotoOrderRequestSchema = v.strictObject(
  {
    photoKeys: v.pipe(
      v.array(PhotoKeySchema, DISCOVERY_MESSAGES.photoOrder),
      v.minLength(1, DISCOVERY_MESSAGES.photoOrder),
      v.maxLength(MAX_PHOTOS, DISCOVERY_MESSAGES.photosMax),
    ),
  },
  DISCOVERY_MESSAGES.photoOrder,
);
export type PhotoOrderRequest = v.InferOutput<typeof PhotoOrderRequestSchema>;
