import { useEffect } from 'react';

export const APP_NAME = 'KYC Desk';

/** Names the browser tab after the page ("Entities — KYC Desk"); the bare app name without one. */
export function useDocumentTitle(pageTitle: string | null | undefined): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} — ${APP_NAME}` : APP_NAME;
  }, [pageTitle]);
}
