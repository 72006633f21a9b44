/**
 * Loads and starts the signed-in runtime (`signed-in-runtime.ts`) at most once: at start-up when a
 * session is stored, on sign-in, and before any signed-in page renders. Until then the login route
 * carries none of it (QUALITY 28).
 *
 * The runtime's own `onSignIn`/`onSignOut` listeners are registered while the session layer is
 * already notifying (the app's listener awaits this load): the session layer also calls listeners
 * added during a notification, so they still hear that sign-in or sign-out.
 */
let loading: Promise<void> | null = null;

export function loadSignedInRuntime(): Promise<void> {
  loading ??= import('./signed-in-runtime.ts')
    .then((runtime) => runtime.startSignedInRuntime())
    .catch((error: unknown) => {
      // A failed download (offline without the precache): try again on the next occasion.
      loading = null;
      throw error;
    });
  return loading;
}

/** The load under way or done, if any; never starts one (a sign-out need not download the runtime). */
export function signedInRuntimeLoad(): Promise<void> | null {
  return loading;
}
