import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { passwordResets } from '../db/schema/index.js';
import { sha256 } from '../lib/tokens.js';
import { ADMIN_ENV, insertUser, uniqueEmail, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { parseEml, startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const RESET_LINK = /http:\/\/helpdesk\.test\/reset-password\?token=([A-Za-z0-9._~%-]+)/;

/** The token of the reset link in a mail (or .eml) text. */
function resetTokenIn(text: string): string {
  const match = RESET_LINK.exec(text);
  if (!match) throw new Error(`no reset link in:\n${text}`);
  return decodeURIComponent(match[1]!);
}

const RESET_RATE = { points: 2, durationSeconds: 60 };

describe('password reset through a real SMTP server', () => {
  let t: TestServer;
  let smtp: MailReceiver;

  beforeAll(async () => {
    smtp = await startMailReceiver();
    t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtp.url }, { rateLimits: { resetPerEmail: RESET_RATE } });
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  const requestReset = (email: string) => t.api.post('/auth/request-password-reset', { email });

  /** Asks for a link and returns the token from the mail that arrives. */
  const mailedToken = async (account: Account): Promise<string> => {
    const before = smtp.to(account.user.email).length;
    const res = await requestReset(account.user.email);
    expect(res.status).toBe(200);
    await t.server.mailer.idle();
    const mails = smtp.to(account.user.email);
    expect(mails).toHaveLength(before + 1);
    return resetTokenIn(mails.at(-1)!.text);
  };

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const known = await insertUser(t, { name: 'Known Kim' });
    const unknownEmail = uniqueEmail('nobody');

    const a = await requestReset(known.user.email);
    const b = await requestReset(unknownEmail);
    for (const res of [a, b]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'If an account with that email exists, a password reset link has been sent.' });
    }
    await t.server.mailer.idle();

    expect(smtp.to(unknownEmail)).toEqual([]);
    const mails = smtp.to(known.user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Reset your HelpDesk System password');
    expect(mail.to).toContain(known.user.email);
    expect(mail.text).toContain('Known Kim');
    expect(mail.text).toMatch(RESET_LINK);
    // The token is long and random, not something guessable like the user id.
    expect(resetTokenIn(mail.text).length).toBeGreaterThanOrEqual(32);
    // Nothing else was sent to anybody.
    expect(smtp.mails.filter((m) => !m.to.includes(known.user.email))).toEqual([]);
  });

  it('matches the email case-insensitively, after trimming', async () => {
    const account = await insertUser(t, { name: 'Casey Case' });
    const res = await requestReset(`  ${account.user.email.toUpperCase()} `);
    expect(res.status).toBe(200);
    await t.server.mailer.idle();
    expect(smtp.to(account.user.email)).toHaveLength(1);
  });

  it('resets the password once: new password works, old one and old sessions do not, the link is spent', async () => {
    const account = await insertUser(t, { name: 'Reset Rita' });
    const token = await mailedToken(account);

    // Before the reset the old session still works.
    expect((await t.api.get('/auth/verify', { token: account.token })).status).toBe(200);

    const res = await t.api.post('/auth/reset-password', { token, newPassword: 'NewSecret9$' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Password has been reset successfully.' });

    const withNew = await t.api.post('/auth/login', { email: account.user.email, password: 'NewSecret9$' });
    expect(withNew.status).toBe(200);
    expect(withNew.body.user).toMatchObject({ id: account.user.id, email: account.user.email });
    expect((await t.api.get('/auth/verify', { token: withNew.body.token })).status).toBe(200);

    const withOld = await t.api.post('/auth/login', { email: account.user.email, password: account.password });
    expect(withOld.status).toBe(401);
    expect(withOld.body).toEqual({ success: false, message: 'Invalid credentials' });

    const oldSession = await t.api.get('/auth/verify', { token: account.token });
    expect(oldSession.status).toBe(401);
    expect(oldSession.body.success).toBe(false);

    const again = await t.api.post('/auth/reset-password', { token, newPassword: 'Another9$Pass' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, message: 'Invalid or expired reset token' });
    // The refused second use did not change the password.
    expect((await t.api.post('/auth/login', { email: account.user.email, password: 'NewSecret9$' })).status).toBe(200);
  });

  it('refuses a made-up token', async () => {
    const res = await t.api.post('/auth/reset-password', { token: 'this-token-was-never-issued', newPassword: 'NewSecret9$' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Invalid or expired reset token' });
  });

  it('refuses an expired token', async () => {
    const account = await insertUser(t, { name: 'Late Larry' });
    const token = await mailedToken(account);
    // Age the link past its hour directly in the database.
    await t.server.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, sha256(token)));
    const res = await t.api.post('/auth/reset-password', { token, newPassword: 'NewSecret9$' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Invalid or expired reset token' });
    expect((await t.api.post('/auth/login', { email: account.user.email, password: account.password })).status).toBe(200);
  });

  it('applies the signup password rules and keeps the link usable after a refused password', async () => {
    const account = await insertUser(t, { name: 'Weak Walter' });
    const token = await mailedToken(account);

    const weak = await t.api.post('/auth/reset-password', { token, newPassword: 'alllowercase' });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ success: false, errors: { newPassword: MESSAGES.validation.passwordWeak } });

    const short = await t.api.post('/auth/reset-password', { token, newPassword: 'A1!a' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ success: false, errors: { newPassword: MESSAGES.validation.passwordTooShort } });

    // Nothing changed yet: the old password still works and the same link still resets.
    expect((await t.api.post('/auth/login', { email: account.user.email, password: account.password })).status).toBe(200);
    const ok = await t.api.post('/auth/reset-password', { token, newPassword: 'Strong9$Now' });
    expect(ok.status).toBe(200);
  });

  it('a newer link makes the older one invalid once it is used', async () => {
    const account = await insertUser(t, { name: 'Double Dora' });
    const first = await mailedToken(account);
    const second = await mailedToken(account);
    expect(second).not.toBe(first);

    const used = await t.api.post('/auth/reset-password', { token: second, newPassword: 'Second9$Pass' });
    expect(used.status).toBe(200);

    const stale = await t.api.post('/auth/reset-password', { token: first, newPassword: 'First9$Pass' });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ success: false, message: 'Invalid or expired reset token' });
    expect((await t.api.post('/auth/login', { email: account.user.email, password: 'Second9$Pass' })).status).toBe(200);
    expect((await t.api.post('/auth/login', { email: account.user.email, password: 'First9$Pass' })).status).toBe(401);
  });

  it('checks the token before hashing: made-up tokens are refused without a single password hash', async () => {
    const account = await insertUser(t, { name: 'Patient Pat' });
    const token = await mailedToken(account);
    // argon2 is the library the server hashes with, in this process: its calls are the evidence.
    const hash = vi.spyOn(argon2, 'hash');
    try {
      const bogus = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.api.post('/auth/reset-password', { token: `made-up-token-${i}-${'x'.repeat(40)}`, newPassword: 'NewSecret9$' }),
        ),
      );
      for (const res of bogus)
        expect({ status: res.status, body: res.body }).toMatchObject({
          status: 400,
          body: { success: false, message: MESSAGES.auth.resetInvalid },
        });
      expect(hash).not.toHaveBeenCalled();

      // The same observation sees the one hash a real link costs.
      expect((await t.api.post('/auth/reset-password', { token, newPassword: 'Patient9$Pass' })).status).toBe(200);
      expect(hash).toHaveBeenCalledTimes(1);
    } finally {
      hash.mockRestore();
    }
  });

  it('lets exactly one of several simultaneous submissions of one link through', async () => {
    const account = await insertUser(t, { name: 'Racing Rae' });
    const token = await mailedToken(account);
    const passwords = ['Race1$Pass', 'Race2$Pass', 'Race3$Pass', 'Race4$Pass', 'Race5$Pass'];
    const results = await Promise.all(passwords.map((newPassword) => t.api.post('/auth/reset-password', { token, newPassword })));

    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const res of results.filter((r) => r.status === 400)) expect(res.body.message).toBe(MESSAGES.auth.resetInvalid);
    const winner = passwords[results.findIndex((r) => r.status === 200)]!;
    for (const password of passwords) {
      expect((await t.api.post('/auth/login', { email: account.user.email, password })).status).toBe(password === winner ? 200 : 401);
    }
  });

  it('rate limits reset requests per email after the configured number', async () => {
    const account = await insertUser(t, { name: 'Spammy Sam' });
    for (let i = 0; i < RESET_RATE.points; i++) expect((await requestReset(account.user.email)).status).toBe(200);

    const limited = await requestReset(account.user.email);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: MESSAGES.auth.tooManyResets });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    await t.server.mailer.idle();
    // Only the allowed requests produced mail.
    expect(smtp.to(account.user.email)).toHaveLength(RESET_RATE.points);

    // Another address is not affected.
    const neighbour = await insertUser(t, { name: 'Neighbour Ned' });
    expect((await requestReset(neighbour.user.email)).status).toBe(200);
  });

  it('validates the request bodies', async () => {
    const badEmail = await requestReset('not-an-email');
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toMatchObject({ success: false, errors: { email: MESSAGES.validation.emailInvalid } });

    const noToken = await t.api.post('/auth/reset-password', { newPassword: 'NewSecret9$' });
    expect(noToken.status).toBe(400);
    expect(noToken.body.success).toBe(false);
  });
});

describe('password reset without SMTP_URL (outbox)', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
  });
  afterAll(() => ifSetUp(t)?.close());

  it('writes the mail as an .eml file in DATA_DIR/outbox, with a working link', async () => {
    const account = await insertUser(t, { name: 'Offline Olga' });
    const res = await t.api.post('/auth/request-password-reset', { email: account.user.email });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('If an account with that email exists, a password reset link has been sent.');
    await t.server.mailer.idle();

    const outbox = path.join(t.dataDir, 'outbox');
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = await readFile(path.join(outbox, files[0]!), 'utf8');
    const mail = await parseEml(raw);
    expect(mail.to).toContain(account.user.email);
    expect(mail.subject).toBe('Reset your HelpDesk System password');
    const token = resetTokenIn(mail.text);

    const reset = await t.api.post('/auth/reset-password', { token, newPassword: 'Outbox9$Pass' });
    expect(reset.status).toBe(200);
    expect((await t.api.post('/auth/login', { email: account.user.email, password: 'Outbox9$Pass' })).status).toBe(200);
  });

  it('writes nothing for an unknown email', async () => {
    const before = (await readdir(path.join(t.dataDir, 'outbox')).catch(() => [])).length;
    const res = await t.api.post('/auth/request-password-reset', { email: uniqueEmail('ghost') });
    expect(res.status).toBe(200);
    await t.server.mailer.idle();
    const after = (await readdir(path.join(t.dataDir, 'outbox')).catch(() => [])).length;
    expect(after).toBe(before);
  });
});
