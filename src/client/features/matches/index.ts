/** The matches feature: /matches. */
export { MatchesScreen } from './matches-screen.tsx';
export { matchesCountState, startMatchesCount } from './matches-count-store.ts';
export { loadMatches } from './matches-store.ts';
