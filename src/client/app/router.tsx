import { createRootRoute, createRoute, createRouter, lazyRouteComponent, notFound } from '@tanstack/react-router';
import { session } from '../services/session.ts';
import { guardProtectedRoute, redirectSignedInFromRoot } from './guards/session-guard.ts';
import { RootLayout } from './layouts/root-layout.tsx';
import { RouteError, RoutePending } from './route-states.tsx';
import {
  LoginSearchSchema,
  parsePlainSearch,
  ResetPasswordSearchSchema,
  stringifyPlainSearch,
} from './search-params.ts';
import { loadSignedInRuntime } from './signed-in-runtime-loader.ts';

/*
 * The route tree of both specs (000 §2, 001 §2), code-based. Every page and every layout except the
 * root is loaded lazily, so the login screen ships only the router, React and its own code
 * (QUALITY 28). Keep this list and APP_ROUTE_PATTERNS in src/shared/routes.ts in step: the
 * server answers 404 for any other path.
 */

const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: lazyRouteComponent(() => import('../routes/not-found.tsx'), 'NotFoundPage'),
});

// Public access screens (spec 000 §2).
const authLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'auth',
  component: lazyRouteComponent(() => import('./layouts/auth-layout.tsx'), 'AuthLayout'),
});

const loginComponent = lazyRouteComponent(() => import('../routes/login.tsx'), 'LoginPage');

// The login screen has its own full-screen layout (demo preview beside the form), so it sits
// outside the auth layout.
const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: redirectSignedInFromRoot,
  component: loginComponent,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: LoginSearchSchema,
  component: loginComponent,
});

const registerRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: 'register',
  component: lazyRouteComponent(() => import('../routes/register.tsx'), 'RegisterPage'),
});

const registerEmailRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: 'register/email',
  component: lazyRouteComponent(() => import('../routes/register-email.tsx'), 'RegisterEmailPage'),
});

const registerGoogleRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: 'register/google',
  component: lazyRouteComponent(() => import('../routes/register-google.tsx'), 'RegisterGooglePage'),
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: 'forgot-password',
  component: lazyRouteComponent(() => import('../routes/forgot-password.tsx'), 'ForgotPasswordPage'),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: 'reset-password',
  validateSearch: ResetPasswordSearchSchema,
  component: lazyRouteComponent(() => import('../routes/reset-password.tsx'), 'ResetPasswordPage'),
});

// The 401 page on its own address; protected routes also render it in place.
const unauthorizedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'unauthorized',
  component: lazyRouteComponent(() => import('../routes/unauthorized.tsx'), 'UnauthorizedPage'),
});

// The signed-in area (spec 001 §2), behind the session guard.
const appLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async () => {
    guardProtectedRoute();
    // A signed-in page needs the runtime (socket, local store…); normally it is loaded already
    // (stored session, sign-in), but a session opened in another tab reaches here first.
    if (session.current()) await loadSignedInRuntime().catch(() => undefined);
  },
  component: lazyRouteComponent(() => import('./layouts/protected-layout.tsx'), 'ProtectedLayout'),
});

const homeRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'home',
  component: lazyRouteComponent(() => import('../routes/home.tsx'), 'HomePage'),
});

const configRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'config',
  component: lazyRouteComponent(() => import('../routes/config.tsx'), 'ConfigPage'),
});

const matchesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'matches',
  component: lazyRouteComponent(() => import('../routes/matches.tsx'), 'MatchesPage'),
});

const messagesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'messages',
  component: lazyRouteComponent(() => import('../routes/messages.tsx'), 'MessagesPage'),
});

const conversationRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'messages/$conversationId',
  component: lazyRouteComponent(() => import('../routes/messages-conversation.tsx'), 'MessagesConversationPage'),
});

const entrenosRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'entrenos',
  component: lazyRouteComponent(() => import('../routes/entrenos.tsx'), 'EntrenosPage'),
});

// «Entrenos abiertos» (issue #35, docs/decisions/0055).
const openSessionsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'entrenos/abiertos',
  component: lazyRouteComponent(() => import('../routes/entrenos-abiertos.tsx'), 'OpenSessionsPage'),
});

const publishOpenSessionRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'entrenos/abiertos/nuevo',
  component: lazyRouteComponent(() => import('../routes/entrenos-abiertos.tsx'), 'PublishOpenSessionPage'),
});

const openSessionRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'entrenos/abiertos/$sessionId',
  component: lazyRouteComponent(() => import('../routes/entrenos-abiertos.tsx'), 'OpenSessionPage'),
});

const notificationsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'notifications',
  component: lazyRouteComponent(() => import('../routes/notifications.tsx'), 'NotificationsPage'),
});

const editProfileRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: 'edit-profile',
  component: lazyRouteComponent(() => import('../routes/edit-profile.tsx'), 'EditProfilePage'),
});

// The moderation console (docs/decisions/0033): not in APP_ROUTE_PATTERNS, so the server answers
// its address with the same 404 as any unknown path; here it opens only for a moderator (the
// server's `GET /api/moderation/me`), and everyone else gets the 404 page.
const moderationLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'moderation',
  beforeLoad: async () => {
    const { checkModeratorAccess } = await import('../features/moderation/moderator-access.ts');
    if (!session.current() || !(await checkModeratorAccess())) throw notFound({ routeId: '__root__' });
  },
  component: lazyRouteComponent(() => import('../routes/moderation.tsx'), 'ModerationLayoutRoute'),
});

const moderationQueueRoute = createRoute({
  getParentRoute: () => moderationLayoutRoute,
  path: 'moderacion',
  component: lazyRouteComponent(() => import('../routes/moderation.tsx'), 'ModerationQueuePage'),
});

const moderationReportRoute = createRoute({
  getParentRoute: () => moderationLayoutRoute,
  path: 'moderacion/denuncias/$reportId',
  component: lazyRouteComponent(() => import('../routes/moderation.tsx'), 'ModerationReportPage'),
});

const moderationAuditRoute = createRoute({
  getParentRoute: () => moderationLayoutRoute,
  path: 'moderacion/registro',
  component: lazyRouteComponent(() => import('../routes/moderation.tsx'), 'ModerationAuditPage'),
});

const moderationVerificationsRoute = createRoute({
  getParentRoute: () => moderationLayoutRoute,
  path: 'moderacion/verificaciones',
  component: lazyRouteComponent(() => import('../routes/moderation.tsx'), 'ModerationVerificationsPage'),
});

// Public reading pages and the development pages.
const infoLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'info',
  component: lazyRouteComponent(() => import('./layouts/info-layout.tsx'), 'InfoLayout'),
});

const termsRoute = createRoute({
  getParentRoute: () => infoLayoutRoute,
  path: 'terms',
  component: lazyRouteComponent(() => import('../routes/terms.tsx'), 'TermsPage'),
});

const privacyRoute = createRoute({
  getParentRoute: () => infoLayoutRoute,
  path: 'privacy',
  component: lazyRouteComponent(() => import('../routes/privacy.tsx'), 'PrivacyPage'),
});

// «Compartir con alguien de confianza» (issue #35): the trusted contact's page, no sign-in.
const sharedRoute = createRoute({
  getParentRoute: () => infoLayoutRoute,
  path: 'compartido/$token',
  component: lazyRouteComponent(() => import('../routes/compartido.tsx'), 'SharedSessionPage'),
});

const devOutboxRoute = createRoute({
  getParentRoute: () => infoLayoutRoute,
  path: 'dev/outbox',
  component: lazyRouteComponent(() => import('../routes/dev-outbox.tsx'), 'DevOutboxPage'),
});

const devUiRoute = createRoute({
  getParentRoute: () => infoLayoutRoute,
  path: 'dev/ui',
  component: lazyRouteComponent(() => import('../routes/dev-ui.tsx'), 'DevUiPage'),
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  authLayoutRoute.addChildren([
    registerRoute,
    registerEmailRoute,
    registerGoogleRoute,
    forgotPasswordRoute,
    resetPasswordRoute,
  ]),
  unauthorizedRoute,
  appLayoutRoute.addChildren([
    homeRoute,
    configRoute,
    matchesRoute,
    messagesRoute,
    conversationRoute,
    entrenosRoute,
    openSessionsRoute,
    publishOpenSessionRoute,
    openSessionRoute,
    notificationsRoute,
    editProfileRoute,
  ]),
  moderationLayoutRoute.addChildren([
    moderationQueueRoute,
    moderationReportRoute,
    moderationVerificationsRoute,
    moderationAuditRoute,
  ]),
  infoLayoutRoute.addChildren([termsRoute, privacyRoute, sharedRoute, devOutboxRoute, devUiRoute]),
]);

/** Builds the app's router; tests and the build-time prerender pass a memory history. */
export function createAppRouter(
  options: { history?: Parameters<typeof createRouter>[0]['history']; scrollRestoration?: boolean } = {},
) {
  return createRouter({
    routeTree,
    history: options.history,
    parseSearch: parsePlainSearch,
    stringifySearch: stringifyPlainSearch,
    // Unknown paths render the full-page 404, never a 404 inside a layout.
    notFoundMode: 'root',
    defaultPreload: 'intent',
    defaultPendingComponent: RoutePending,
    defaultPendingMs: 400,
    defaultErrorComponent: RouteError,
    scrollRestoration: options.scrollRestoration ?? true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
