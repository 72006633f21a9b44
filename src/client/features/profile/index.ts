/** The profile feature: the creation wizard, the editor and the own-profile state. */
export { ProfileWizard } from './profile-wizard.tsx';
export { ProfileEditor } from './profile-editor.tsx';
export { loadOwnProfile, ownProfileState, setOwnProfile, type OwnProfileState } from './own-profile-store.ts';
export { useCurrentUserId } from './use-current-user-id.ts';
