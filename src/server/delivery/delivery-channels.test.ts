import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { passwordResetEmail } from '../features/auth/auth-emails.ts';
import { createSmtpEmailChannel } from './email-channel.ts';
import { createTwilioSmsChannel } from './sms-channel.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** The smallest SMTP server nodemailer will talk to: records the envelope and the message. */
async function startFakeSmtp() {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') current.from = line;
        if (verb === 'RCPT') current.to.push(line);
        if (verb === 'DATA') inData = true;
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') socket.write('354 go ahead\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return { port: (server.address() as AddressInfo).port, received };
}

describe('delivery channels', () => {
  it('sends the reset e-mail by SMTP with text and HTML parts, from SMTP_FROM', async () => {
    const smtp = await startFakeSmtp();
    const channel = createSmtpEmailChannel({
      url: `smtp://127.0.0.1:${smtp.port}`,
      from: 'Entreno <no-reply@entreno.example>',
    });
    closers.push(() => void channel.close?.());
    const link = 'https://entreno.example/reset-password?token=abc&email=ana%40example.com';
    await channel.send(passwordResetEmail({ to: 'ana@example.com', name: 'Ana <b>', link }));
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.from).toContain('no-reply@entreno.example');
    expect(mail?.to.join()).toContain('ana@example.com');
    expect(mail?.data).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
    expect(mail?.data).toMatch(/Content-Type: text\/html; charset=utf-8/i);
  });

  it('escapes what the user typed in the HTML e-mail', () => {
    const mail = passwordResetEmail({
      to: 'a@b.es',
      name: '<img src=x onerror=alert(1)>',
      link: 'https://e.example/?a=1&b="2"',
    });
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('href="https://e.example/?a=1&amp;b=&quot;2&quot;"');
    expect(mail.text).toContain('Hola, <img src=x onerror=alert(1)>:');
  });

  it('posts texts to the Twilio Messages API and fails loudly on an error status', async () => {
    const requests: { url: string; authorization: string; body: string }[] = [];
    let status = 201;
    const server = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        requests.push({ url: request.url ?? '', authorization: request.headers.authorization ?? '', body });
        response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const channel = createTwilioSmsChannel({
      accountSid: 'AC123',
      authToken: 'secret',
      from: '+34600111222',
      apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    await channel.send({ to: '+34612398745', text: 'Tu código de Entreno es 123456.', code: '123456' });
    expect(requests[0]?.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(requests[0]?.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(requests[0]?.body))).toEqual({
      To: '+34612398745',
      From: '+34600111222',
      Body: 'Tu código de Entreno es 123456.',
    });
    status = 400;
    await expect(channel.send({ to: '+34612398745', text: 'x' })).rejects.toThrow('HTTP 400');
  });
});
