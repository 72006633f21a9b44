import type { GenericSchema } from 'valibot';
import {
  CheckEmailRequestSchema,
  CompleteRegistrationRequestSchema,
  ForgotPasswordRequestSchema,
  GoogleLoginRequestSchema,
  GoogleSendCodeRequestSchema,
  GoogleVerifyCodeRequestSchema,
  LoginRequestSchema,
  RegisterRequestSchema,
  ResetPasswordRequestSchema,
  SendCodeRequestSchema,
  UpdateStreakRequestSchema,
  ValidateResetTokenRequestSchema,
  VerifyCodeRequestSchema,
} from '#shared/auth/auth-schemas';
import {
  ArchiveRequestSchema,
  ConversationListQuerySchema,
  MessageListQuerySchema,
  MuteRequestSchema,
  PinRequestSchema,
  SendMessageRequestSchema,
  SwipeTypeRequestSchema,
  SyncQuerySchema,
} from '#shared/chat/chat-schemas';
import {
  PhotoOrderRequestSchema,
  RecommendedQuerySchema,
  SwipeRequestSchema,
  ToolCallRequestSchema,
  UndoSwipeRequestSchema,
} from '#shared/discovery/discovery-schemas';
import { NotificationListQuerySchema } from '#shared/notifications/notification-schemas';
import { PushSubscriptionRequestSchema, PushUnsubscribeRequestSchema } from '#shared/notifications/push-schemas';
import {
  LocationUpdateRequestSchema,
  profileCreateRequestSchema,
  profileUpdateRequestSchema,
} from '#shared/profile/profile-schema';
import { BlockRequestSchema, DeleteAccountRequestSchema, ReportRequestSchema } from '#shared/safety/safety-schemas';
import { SettingsPatchSchema } from '#shared/settings/settings-schema';
import { HealthSchema, ReadinessSchema } from '#shared/api';

export type RouteSchemas = { body?: GenericSchema; querystring?: GenericSchema; response?: GenericSchema };

/**
 * Which shared valibot schema each route parses its input with (the same objects the handlers and
 * services pass to `parseInput`), keyed `METHOD /url` as Fastify registers the route. The OpenAPI
 * document is generated from these; tests/integration/openapi.test.ts fails when a key names a
 * route that does not exist.
 */
export const ROUTE_SCHEMAS: Record<string, RouteSchemas> = {
  'GET /api/health': { response: HealthSchema },
  'GET /api/ready': { response: ReadinessSchema },
  'POST /api/auth/check-email': { body: CheckEmailRequestSchema },
  'POST /api/auth/complete-registration': { body: CompleteRegistrationRequestSchema },
  'POST /api/auth/send-code': { body: SendCodeRequestSchema },
  'POST /api/auth/verify-code': { body: VerifyCodeRequestSchema },
  'POST /api/auth/validate-reset-token': { body: ValidateResetTokenRequestSchema },
  'POST /api/auth/register': { body: RegisterRequestSchema },
  'POST /api/auth/reset-password': { body: ResetPasswordRequestSchema },
  'POST /api/auth/login': { body: LoginRequestSchema },
  'POST /api/auth/update-streak': { body: UpdateStreakRequestSchema },
  'POST /api/auth/forgot-password': { body: ForgotPasswordRequestSchema },
  'POST /api/auth/google': { body: GoogleLoginRequestSchema },
  'POST /api/auth/google/send-code': { body: GoogleSendCodeRequestSchema },
  'POST /api/auth/google/verify-code': { body: GoogleVerifyCodeRequestSchema },
  'DELETE /api/account/': { body: DeleteAccountRequestSchema },
  'GET /api/notifications/': { querystring: NotificationListQuerySchema },
  'POST /api/push/subscriptions': { body: PushSubscriptionRequestSchema },
  'DELETE /api/push/subscriptions': { body: PushUnsubscribeRequestSchema },
  'POST /api/profiles': { body: profileCreateRequestSchema() },
  'PUT /api/profiles/:userId': { body: profileUpdateRequestSchema() },
  'PUT /api/profiles/:userId/location': { body: LocationUpdateRequestSchema },
  'PUT /api/profiles/:id/photos/order': { body: PhotoOrderRequestSchema },
  'GET /api/profiles/:userId/recommended': { querystring: RecommendedQuerySchema },
  'PUT /api/settings/': { body: SettingsPatchSchema },
  'GET /api/sync': { querystring: SyncQuerySchema },
  'POST /api/swipes/users/:id/swipe': { body: SwipeRequestSchema },
  'POST /api/swipes/users/:id/undo': { body: UndoSwipeRequestSchema },
  'POST /api/safety/blocks': { body: BlockRequestSchema },
  'POST /api/safety/reports': { body: ReportRequestSchema },
  'GET /api/messages/conversations': { querystring: ConversationListQuerySchema },
  'GET /api/messages/conversations/:id/messages': { querystring: MessageListQuerySchema },
  'PATCH /api/messages/conversations/:id/mute': { body: MuteRequestSchema },
  'PATCH /api/messages/conversations/:id/pin': { body: PinRequestSchema },
  'PATCH /api/messages/conversations/:id/archive': { body: ArchiveRequestSchema },
  'PATCH /api/messages/conversations/:id/swipetype': { body: SwipeTypeRequestSchema },
  'POST /api/messages/messages': { body: SendMessageRequestSchema },
  'POST /api/mcp/tool': { body: ToolCallRequestSchema },
};
