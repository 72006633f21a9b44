/** «Entrenos abiertos» (issue #35, docs/decisions/0055): publish, find nearby, join, the host's requests. */
export { startOpenSessions } from './open-session-store.ts';
export { OpenSessionsScreen } from './open-sessions-screen.tsx';
export { PublishScreen } from './publish-screen.tsx';
export { SessionScreen } from './session-screen.tsx';
