import { ApiError, bad } from '../errors';
import { readBody } from '../http/body';
import { simulatorDocument } from '../openapi';
import type { RouteContext } from '../http/app';

/** Health (GET /), the OpenAPI document (GET /openapi.json) and T: the OAuth2 token endpoint (client credentials as HTTP Basic). */
export function registerHealthAndTokenRoutes(ctx: RouteContext) {
  const { d, tokens, route, requireBasic, limitToken } = ctx;
  // =====================================================================
  // Health
  route('/', {
    GET: (c) => {
      const f = d.faults;
      const details = {
        api: f.errorRate > 0 ? 'DEGRADED' : 'UP',
        callback: f.dropCallbacks > 0 ? 'DEGRADED' : 'UP',
        mobile: 'UP',
        processing: f.stallProcessing ? 'DEGRADED' : 'UP',
        retrieval: f.errorRate > 0 ? 'DEGRADED' : 'UP',
        web: 'UP',
      };
      return c.json({ status: Object.values(details).includes('DEGRADED') ? 'DEGRADED' : 'UP', details });
    },
  });

  // The OpenAPI document, public like the spec it is generated from.
  route('/openapi.json', { GET: (c) => c.json(simulatorDocument()) });

  // =====================================================================
  // T: token
  route('/oauth2/token', {
    POST: async (c) => {
      limitToken();
      requireBasic(c);
      const { buf, over } = await readBody(c, 64 * 1024);
      if (over) throw new ApiError(413, 'The token request body is too large');
      const form = new URLSearchParams(buf.toString('utf8'));
      const grant = form.get('grant_type');
      if (!grant)
        throw bad(
          'grant_type is required: send the form field grant_type=client_credentials (application/x-www-form-urlencoded)',
        );
      if (grant !== 'client_credentials')
        throw bad(`Unsupported grant_type "${grant.slice(0, 40)}": only client_credentials is supported`);
      const life = d.faults.tokenLifetimeSec ?? d.accessTokenLifetimeSec;
      const t = await tokens.accessToken(d.clientId, life);
      return c.json({ access_token: t.token, expires_in: t.expiresIn, token_type: 'Bearer' }, 200, {
        'cache-control': 'no-store',
      });
    },
  });
}
