/** The login streak as the signed-in frame shows it. */
export { streakLabel, useStreak } from './streak.ts';
