/**
 * API tokens for the scale bench's token call: a few per asking agent, so that no token nears its
 * own budget of 600 calls a minute at the rate the bench asks (the call measures the token's path,
 * not its 429). Made over the API once per run; the tokens an earlier run left are revoked first,
 * since a kept data set keeps them and a person holds at most 20 live ones.
 */
import { LIMITS, type ApiTokensResponse, type CreatedApiTokenResponse } from '@helpdesk/protocol';
import { send, type Target } from './scaleLoad.js';

const NAME = 'scale bench';
const PER_AGENT = 5;

export async function benchTokens(to: Target, agentHeaders: (agentId: number) => Record<string, string>, agents: number[]) {
  const secrets: string[] = [];
  for (const agent of agents) {
    const headers = { ...agentHeaders(agent), 'content-type': 'application/json' };
    const listed = await send(to, 'GET', '/api/tokens', headers);
    if (listed.status !== 200) throw new Error(`GET /api/tokens answered ${listed.status}: ${listed.body.toString()}`);
    for (const token of (JSON.parse(listed.body.toString()) as ApiTokensResponse).tokens) {
      if (token.name.startsWith(NAME) && token.owner.id === agent) await send(to, 'DELETE', `/api/tokens/${token.id}`, headers);
    }
    for (let i = 0; i < Math.min(PER_AGENT, LIMITS.apiTokens.perPerson); i++) {
      const body = JSON.stringify({ name: `${NAME} ${i}`, scopes: ['tickets:read'], expiresInDays: 1 });
      const made = await send(to, 'POST', '/api/tokens', headers, body);
      if (made.status !== 201) throw new Error(`POST /api/tokens answered ${made.status}: ${made.body.toString()}`);
      secrets.push((JSON.parse(made.body.toString()) as CreatedApiTokenResponse).secret);
    }
  }
  return secrets;
}
