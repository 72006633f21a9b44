import { useEffect, useState } from 'react';
import type { ModerationNotice } from '#shared/moderation/moderation-schemas';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { moderationApi } from './moderation-api.ts';
import { AppealForm } from './appeal-form.tsx';

type Notice = NonNullable<ModerationNotice['notice']>;

/**
 * A moderator's warning, shown once in the signed-in app: the reason, "Entendido" (seen), and the
 * one appeal. Asked once per app start; offline, nothing is shown and it is asked again next time.
 */
export function ModerationNoticeDialog() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [isAppealing, setIsAppealing] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    moderationApi
      .notice()
      .then((answer) => {
        if (isCurrent) setNotice(answer.notice);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, []);
  if (!notice) return null;
  const close = () => {
    void moderationApi.noticeSeen(notice.restrictionId).catch(() => undefined);
    setNotice(null);
  };
  return (
    <Dialog
      open
      onClose={close}
      title="Aviso de moderación"
      description={`Hemos revisado una denuncia sobre tu cuenta. Motivo: ${notice.reason}. Si se repite, podemos suspender tu cuenta.`}
      actions={<Button onClick={close}>Entendido</Button>}
    >
      {notice.canAppeal &&
        (isAppealing ? (
          <AppealForm target={{ restrictionId: notice.restrictionId }} />
        ) : (
          <Button variant="ghost" onClick={() => setIsAppealing(true)}>
            No estoy de acuerdo: apelar
          </Button>
        ))}
    </Dialog>
  );
}
