import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import { createMailer } from '@/lib/mail/mailer';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';

/** lib/mail against a real SMTP server on loopback: what is sent is what arrives. */
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp?.stop());

describe('outgoing e-mail (lib/mail)', () => {
  it('delivers text and html to the SMTP server, from MAIL_FROM, with the login of SMTP_URL', async () => {
    const m = createMailer({ url: smtp.url, from: 'Verdict <verdict@example.test>' });
    const sent = await m.sendMail({
      to: 'ada@example.test',
      subject: 'Choose your password',
      text: 'Open https://verdict.example.test/x once.',
      html: '<p>Open <a href="https://verdict.example.test/x">the link</a> once.</p>',
    });
    expect(sent.messageId).toMatch(/@/);
    const mail = await smtp.waitFor('ada@example.test');
    expect(mail).toMatchObject({
      envelopeFrom: 'verdict@example.test',
      envelopeTo: ['ada@example.test'],
      from: '"Verdict" <verdict@example.test>',
      subject: 'Choose your password',
      user: 'verdict',
    });
    expect(mail.text.trim()).toBe('Open https://verdict.example.test/x once.');
    expect(mail.html).toContain('href="https://verdict.example.test/x"');
  });

  it('fails the send (to the caller) when the server is not there, within its time limits', async () => {
    const gone = await startSmtpReceiver();
    await gone.stop();
    const m = createMailer({ url: gone.url, from: 'verdict@example.test' });
    await expect(m.sendMail({ to: 'bob@example.test', subject: 's', text: 't' })).rejects.toThrow();
  });

  it('SMTP_URL and MAIL_FROM are validated at start-up, naming the variable', () => {
    expect(parseEnv({}).SMTP_URL).toBeUndefined();
    expect(() => parseEnv({ SMTP_URL: 'http://mail.example.test' })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ SMTP_URL: 'smtp://mail.example.test:587' })).toThrow(/MAIL_FROM: required/);
    expect(() => parseEnv({ SMTP_URL: 'smtp://mail.example.test', MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM/);
    const env = parseEnv({ SMTP_URL: 'smtps://u:p@mail.example.test:465', MAIL_FROM: 'Verdict <v@example.test>' });
    expect(env.SMTP_URL).toBe('smtps://u:p@mail.example.test:465');
    expect(parseEnv({ MAIL_FROM: 'v@example.test' }).MAIL_FROM).toBe('v@example.test');
  });
});
