/** The discovery feature: the /home deck and the full profile modal other screens reuse. */
export { DeckOfflineNotice } from './deck-offline-notice.tsx';
export { DiscoveryDeck, DiscoveryDeckSkeleton } from './discovery-deck.tsx';
export { ProfileModal, ProfileModalById } from './profile-modal.tsx';
export { MATCHES_CHANGED_EVENT } from './deck-store.ts';
export { saveGenderPreference, savePreferences } from './discovery-api.ts';
