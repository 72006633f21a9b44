import { api, toApiError } from './http.ts';

/** What a failed «Añadir al calendario» says. */
export const CALENDAR_DOWNLOAD_FAILED = 'No se pudo descargar el calendario. Comprueba tu conexión.';

/**
 * «Añadir al calendario»: fetches a file the API serves behind the bearer token (an `.ics`) and
 * hands it to the browser as a download named `fileName`. A plain link cannot carry the token.
 * Throws the API's error (its Spanish message) when the server refuses or cannot be reached.
 */
export async function downloadFromApi(path: string, fileName: string): Promise<void> {
  let response: Response;
  try {
    response = await api(path);
  } catch (error) {
    throw await toApiError(error);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
