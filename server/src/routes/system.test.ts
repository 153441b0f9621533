import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';

describe('system routes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ AGENT_SIGNUP: 'closed' });
  });
  afterAll(() => t.close());

  it('reports health with the database status', async () => {
    const res = await t.api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', db: 'ok' });
  });

  it('tells the client whether agent signup is open', async () => {
    const res = await t.api.get('/config');
    expect(res.body).toMatchObject({ agentSignup: 'closed' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.api.get('/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Not found' });
  });

  it('answers malformed JSON with a 400, never a 500', async () => {
    const res = await t.api.request('POST', '/auth/login', { raw: '{"email":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: 'Request body is not valid JSON' });
  });

  it('refuses bodies over the size limit with a 413', async () => {
    const res = await t.api.request('POST', '/auth/login', { raw: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(300 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: 'Request body is too large' });
  });

  it('answers a JSON body that is not an object (an array, a bare value) with a 400 saying so', async () => {
    for (const raw of ['[1,2]', '1', 'null', 'true', '"x"']) {
      const res = await t.api.request('POST', '/auth/login', { raw });
      expect([raw, res.status, res.body]).toEqual([raw, 400, { success: false, message: 'Request body must be a JSON object' }]);
    }
  });

  it('reads a body of any JSON media type, and names an encoding it cannot read', async () => {
    const raw = JSON.stringify({ email: 'nobody@example.test', password: 'Wrong-password-1' });
    for (const type of ['application/merge-patch+json', 'application/ld+json', 'application/problem+json; charset=utf-8']) {
      const res = await t.api.request('POST', '/auth/login', { raw, headers: { 'content-type': type } });
      // Read: the credentials were checked, not found missing.
      expect([type, res.status, res.body.message]).toEqual([type, 401, 'Invalid credentials']);
    }
    for (const encoding of ['bogus', 'gzip, gzip']) {
      const res = await t.api.request('POST', '/auth/login', { raw, headers: { 'content-encoding': encoding } });
      expect([encoding, res.status, res.body]).toEqual([
        encoding,
        415,
        { success: false, message: 'Request body must be sent uncompressed or as gzip, deflate or br' },
      ]);
    }
  });
});

describe('when the database fails', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('answers an unexpected failure with a generic 500 that reveals nothing internal', async () => {
    const { sql } = await import('drizzle-orm');
    await t.server.database.db.execute(sql`drop table articles cascade`);
    const res = await t.api.get('/knowledge');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, message: 'Something went wrong on our side. Please try again later.' });
    expect(JSON.stringify(res.body)).not.toMatch(/articles|relation|select|at \w+ \(|\.ts:/i);
  });

  it('reports 503 from the health check once the database is gone', async () => {
    await t.server.database.close();
    const res = await t.api.get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'error', db: 'error' });
  });
});
