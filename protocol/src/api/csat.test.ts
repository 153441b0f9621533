import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { CSAT_TOKEN_PATTERN, csatAnswerBody } from './csat.js';

describe('csatAnswerBody', () => {
  const firstMessage = (body: unknown) => csatAnswerBody.safeParse(body).error?.issues[0]?.message;

  it('takes a rating and an optional comment, trimmed; an empty comment is none', () => {
    expect(csatAnswerBody.parse({ rating: 'good' })).toEqual({ rating: 'good', comment: null });
    expect(csatAnswerBody.parse({ rating: 'bad', comment: '  Too slow  ' })).toEqual({ rating: 'bad', comment: 'Too slow' });
    expect(csatAnswerBody.parse({ rating: 'neutral', comment: '   ' })).toEqual({ rating: 'neutral', comment: null });
    expect(csatAnswerBody.parse({ rating: 'neutral', comment: null })).toEqual({ rating: 'neutral', comment: null });
  });

  it('names the rule a rating or comment breaks', () => {
    expect(MESSAGES.csat.ratingInvalid).toBe('Rating must be one of good, neutral, bad');
    for (const body of [{}, { rating: 'Good' }, { rating: 1 }]) expect(firstMessage(body)).toBe(MESSAGES.csat.ratingInvalid);
    expect(firstMessage({ rating: 'good', comment: 'x'.repeat(2001) })).toBe('Comment must be at most 2000 characters long');
    expect(csatAnswerBody.safeParse({ rating: 'good', comment: 'x'.repeat(2000) }).success).toBe(true);
    expect(firstMessage({ rating: 'good', comment: 'a\u0000b' })).toBe(MESSAGES.validation.invalidCharacter('Comment'));
  });

  it('knows a link token by its shape: 32 random bytes in base64url', () => {
    expect(CSAT_TOKEN_PATTERN.test('a'.repeat(43))).toBe(true);
    expect(CSAT_TOKEN_PATTERN.test('a'.repeat(42))).toBe(false);
    expect(CSAT_TOKEN_PATTERN.test(`${'a'.repeat(42)}=`)).toBe(false);
  });
});
