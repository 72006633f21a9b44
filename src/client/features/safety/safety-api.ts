/** The safety calls (docs/decisions/0012): blocks, reports, the data export and account deletion. */
import type { DeleteAccountRequest, DeletionMethodResponse, ReportRequest } from '#shared/safety/safety-schemas';
import { api, requestJson, toApiError } from '../../services/http.ts';

type Done = { success: true; message: string };

export const safetyApi = {
  block: (userId: string) => requestJson<Done>('safety/blocks', { method: 'post', json: { userId } }),
  report: (report: ReportRequest) =>
    requestJson<Done & { reportId: string }>('safety/reports', { method: 'post', json: report }),
  /** The export as the server wrote it (pretty-printed JSON), kept byte for byte for the download. */
  async exportData(): Promise<string> {
    try {
      return await api('account/export', { timeout: 60_000 }).text();
    } catch (error) {
      throw await toApiError(error);
    }
  },
  deletionMethod: () => requestJson<DeletionMethodResponse>('account/deletion'),
  deleteAccount: (body: DeleteAccountRequest) => requestJson<Done>('account', { method: 'delete', json: body }),
};

export type SafetyApi = typeof safetyApi;
