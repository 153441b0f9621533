import { randomBytes, createHash } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { createRecentlyUsed } from './recentlyUsed.js';

export interface TokenClaims {
  userId: number;
  /** users.token_version at signing; a bump revokes the token. */
  version: number;
  expiresAt: number;
}

export interface TokenService {
  sign(userId: number, version: number): Promise<string>;
  /** undefined for anything that is not a valid, unexpired token of ours. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

const ISSUER = 'helpdesk';
/** Sessions whose checked signature is kept (least recently used dropped first); ~300 bytes each. */
const VERIFIED_TOKENS = 10_000;

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  // A signature checked once stays valid for that exact string, so every request of a session after
  // its first skips the HMAC (WebCrypto: a key import and a thread-pool hop each time). Expiry is still
  // checked on every use, and revocation is the token version, compared with the user row per request.
  const verified = createRecentlyUsed<string, TokenClaims>(VERIFIED_TOKENS);
  const verifySignature = async (token: string): Promise<TokenClaims | undefined> => {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || userId <= 0 || typeof payload.ver !== 'number' || !payload.exp) return undefined;
      return { userId, version: payload.ver, expiresAt: payload.exp * 1000 };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  };
  return {
    async sign(userId, version) {
      return new SignJWT({ ver: version })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt > Date.now()) return known;
        verified.delete(token);
        return undefined;
      }
      const claims = await verifySignature(token);
      if (claims) verified.set(token, claims);
      return claims;
    },
  };
}

/** Opaque single-use secrets (reset links): the raw value goes out, only its hash is stored. */
export const randomToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
