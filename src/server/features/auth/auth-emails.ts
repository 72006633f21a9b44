import type { EmailMessage } from '../../delivery/email-channel.ts';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** The password-reset e-mail (spec 000 §2, "Forgot-password"): Spanish, text and HTML. */
export function passwordResetEmail(input: { to: string; name: string; link: string }): EmailMessage {
  const name = input.name.trim() || 'deportista';
  const subject = 'Restablece tu contraseña de Entreno';
  const text = [
    `Hola, ${name}:`,
    '',
    'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de Entreno.',
    '',
    'Para elegir una contraseña nueva, abre este enlace:',
    input.link,
    '',
    'El enlace caduca en 1 hora y solo se puede usar una vez.',
    '',
    'Si no has solicitado este cambio, puedes ignorar este correo: tu contraseña seguirá siendo la misma.',
    '',
    'El equipo de Entreno',
  ].join('\n');
  const link = escapeHtml(input.link);
  const html = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b;">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;padding:24px 0;">
    <tr><td align="center">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px;">
        <tr><td>
          <h1 style="margin:0 0 16px;font-size:22px;">Restablece tu contraseña</h1>
          <p style="margin:0 0 16px;font-size:16px;line-height:1.5;">Hola, ${escapeHtml(name)}:</p>
          <p style="margin:0 0 24px;font-size:16px;line-height:1.5;">Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de Entreno. Pulsa el botón para elegir una contraseña nueva.</p>
          <p style="margin:0 0 24px;text-align:center;">
            <a href="${link}" style="display:inline-block;background:#ea580c;color:#ffffff;text-decoration:none;font-weight:bold;font-size:16px;padding:14px 28px;border-radius:8px;">Restablecer contraseña</a>
          </p>
          <p style="margin:0 0 8px;font-size:14px;line-height:1.5;color:#52525b;">Si el botón no funciona, copia y pega este enlace en tu navegador:</p>
          <p style="margin:0 0 24px;font-size:14px;line-height:1.5;word-break:break-all;"><a href="${link}" style="color:#ea580c;">${link}</a></p>
          <p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:#52525b;">El enlace caduca en 1 hora y solo se puede usar una vez.</p>
          <p style="margin:0 0 24px;font-size:14px;line-height:1.5;color:#52525b;">Si no has solicitado este cambio, puedes ignorar este correo: tu contraseña seguirá siendo la misma.</p>
          <p style="margin:0;font-size:14px;color:#52525b;">El equipo de Entreno</p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>`;
  return { to: input.to, subject, text, html, link: input.link };
}
