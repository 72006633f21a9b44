/** Quedadas (issue #21): planned training sessions inside the chat, their reminders and record. */
export { QuedadaHeaderLine, QuedadaMatchLine, ReliabilityLine } from './quedada-lines.tsx';
export { startQuedadas } from './quedada-store.ts';
export { SharePanel } from './share-panel.tsx';
export { startQuedadaShares } from './share-store.ts';
export { QuedadaComposerButton, quedadaEntries, useConversationQuedadas } from './quedada-thread.tsx';
export { UpcomingLink, UpcomingScreen } from './upcoming-screen.tsx';
