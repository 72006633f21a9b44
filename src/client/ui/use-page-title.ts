import { useEffect } from 'react';

const APP_NAME = 'Entreno';

/** Sets the document title to 'Page · Entreno' while the page is shown. */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
