/** The discovery feature: the /home deck and the full profile modal other screens reuse. */
export { DiscoveryDeck, DiscoveryDeckSkeleton } from './discovery-deck.tsx';
export { ProfileModal, ProfileModalById } from './profile-modal.tsx';
export { MATCHES_CHANGED_EVENT } from './deck-store.ts';
export { savePreferences } from './discovery-api.ts';
