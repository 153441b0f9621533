import { describe, expect, it } from 'vitest';
import { requestLevel } from './requestLog.js';

describe('the level a request is logged at', () => {
  it('logs an outage’s 503 as a warning and any other failure as an error', () => {
    expect(requestLevel(503, '/api/tickets')).toBe('warn');
    expect(requestLevel(503, '/api/health')).toBe('warn');
    expect(requestLevel(500, '/api/tickets')).toBe('error');
    expect(requestLevel(502, '/')).toBe('error');
  });

  it('logs API calls at info and the client’s files at debug', () => {
    expect(requestLevel(200, '/api/tickets')).toBe('info');
    expect(requestLevel(404, '/api/no-such-call')).toBe('info');
    expect(requestLevel(200, '/assets/app-1a2b.js')).toBe('debug');
  });
});
