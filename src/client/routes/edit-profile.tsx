import { ProfileEditor, useCurrentUserId } from '../features/profile/index.ts';

/** Editing one's own profile, reached from settings (spec 001 §2). */
export function EditProfilePage() {
  const userId = useCurrentUserId();
  return <ProfileEditor userId={userId} />;
}
