/** The verification calls (docs/decisions/0034): the owner's state, the pose, the selfie; the console's queue. */
import type {
  RejectVerificationInput,
  VerificationQueue,
  VerificationState,
} from '#shared/verification/verification-schemas';
import { requestBlob, requestJson } from '../../services/http.ts';
import { uploadWithProgress } from '../../services/upload.ts';

export const verificationApi = {
  state: () => requestJson<VerificationState>('verification'),
  challenge: () => requestJson<VerificationState>('verification/challenge', { method: 'post' }),
  async submit(selfie: Blob, onProgress: (percent: number) => void): Promise<VerificationState> {
    const form = new FormData();
    form.append('selfie', selfie, selfie instanceof File ? selfie.name : 'selfie.jpg');
    const answer = await uploadWithProgress<{ verification: VerificationState }>(
      'verification/requests',
      form,
      onProgress,
    );
    return answer.verification;
  },
};

export const verificationQueueApi = {
  list: () => requestJson<VerificationQueue>('moderation/verifications'),
  selfie: (requestId: string) => requestBlob(`moderation/verifications/${encodeURIComponent(requestId)}/selfie`),
  approve: (requestId: string, photoKeys: readonly string[]) =>
    requestJson<{ message: string }>(`moderation/verifications/${encodeURIComponent(requestId)}/approve`, {
      method: 'post',
      json: { photoKeys },
    }),
  reject: (requestId: string, input: RejectVerificationInput) =>
    requestJson<{ message: string }>(`moderation/verifications/${encodeURIComponent(requestId)}/reject`, {
      method: 'post',
      json: input,
    }),
};

export type VerificationApi = typeof verificationApi;
