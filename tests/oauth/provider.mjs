// The authorization server of tests/tests/served/oauth.rs and tests/tests/served/secured.rs: the npm package
// `oidc-provider` (OpenID Certified) on 127.0.0.1, issuing access tokens for the resource a
// client names (RFC 8707 resource indicators):
//
// - client credentials: JWTs signed RS256 for `jwt-client`, ES256 for `es-client`, opaque tokens
//   (for introspection) for `opaque-client`; `resource-server` is the MCP server's own client,
//   which introspects;
// - authorization code with PKCE for clients that register themselves (RFC 7591, open
//   registration), JWTs signed RS256. The user's login and consent are answered by whoever
//   follows the redirect: `GET /interaction/{uid}` says what is asked (JSON: the client, the
//   resource, the scopes), `POST /interaction/{uid}` with the form `login=USER&scope=...` logs
//   USER in and grants those of the asked scopes the form names (fewer than asked: the user
//   consented to less), then redirects on to the client's redirect URI with the code.
//
//   node provider.mjs --resource URI [--port PORT]
//
// Prints one JSON line on stdout once it listens: the issuer, and the signing keys (fresh RSA
// and P-256 keys each start, their `kid`s new: restarting on the same port is a key rotation)
// as PEM, so the test forges tokens signed by the very keys the JWKS publishes.
// `GET /test/jwks-fetches` counts the JWKS fetches.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const resource = argument('--resource');
const port = Number(argument('--port', '0'));
if (!resource) {
  console.error('provider.mjs: --resource URI is required');
  process.exit(2);
}

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();
const es = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const esKid = randomUUID();
const scopes = ['notes:read', 'notes:write', 'notes:admin'];

const client = (id, secret) => ({
  client_id: id,
  client_secret: secret,
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
  token_endpoint_auth_method: 'client_secret_basic',
  scope: scopes.join(' '),
});

const configure = (issuer) => new Provider(issuer, {
  clients: [
    client('jwt-client', 'jwt-secret'),
    client('opaque-client', 'opaque-secret'),
    client('resource-server', 'resource-secret'),
    client('es-client', 'es-secret'),
  ],
  jwks: {
    keys: [
      { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
      { ...es.privateKey.export({ format: 'jwk' }), kid: esKid, alg: 'ES256', use: 'sig' },
    ],
  },
  scopes,
  // The login and consent pages: answered by the test (`interact` below).
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  // Refresh tokens for the clients that register for them (as MCP clients do).
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  // Users are whoever logs in.
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: true },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator, { clientId }) => ({
        scope: scopes.join(' '),
        audience: indicator,
        accessTokenTTL: 300,
        accessTokenFormat: clientId === 'opaque-client' ? 'opaque' : 'jwt',
        jwt: { sign: { alg: clientId === 'es-client' ? 'ES256' : 'RS256' } },
      }),
    },
  },
});

/// `GET /interaction/{uid}`: what the user is asked; `POST`: the user's answer (see the top).
const interact = async (provider, req, res) => {
  const details = await provider.interactionDetails(req, res);
  const { params, prompt } = details;
  const asked = String(params.scope ?? '').split(' ').filter(Boolean);
  if (req.method === 'GET') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ prompt: prompt.name, client_id: params.client_id, resource: params.resource, scope: asked }));
    return;
  }
  let body = '';
  for await (const chunk of req) body += chunk;
  const form = new URLSearchParams(body);
  const accountId = details.session?.accountId ?? form.get('login');
  const granted = String(form.get('scope') ?? '').split(' ').filter((scope) => asked.includes(scope));
  // A new grant each time: what this request was granted and rejected, not an earlier one's.
  const grant = new provider.Grant({ accountId, clientId: params.client_id });
  // What the user did not grant is rejected, so that it is not asked again for this request.
  const rejected = asked.filter((scope) => !granted.includes(scope));
  grant.addOIDCScope(granted.join(' '));
  if (rejected.length > 0) grant.rejectOIDCScope(rejected.join(' '));
  for (const indicator of [params.resource ?? resource].flat()) {
    grant.addResourceScope(indicator, granted.join(' '));
    if (rejected.length > 0) grant.rejectResourceScope(indicator, rejected.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
};

// The issuer names the port, so listen first, then build the provider on that port.
const { createServer } = await import('node:http');
let handler = (_req, res) => { res.statusCode = 503; res.end(); };
let provider;
// `GET /test/jwks-fetches`: how many times the JWKS was fetched since this start (the test
// checks the server's re-fetches are rate-limited).
let jwksFetches = 0;
const server = createServer((req, res) => {
  if (req.url === '/test/jwks-fetches') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(jwksFetches));
    return;
  }
  if (req.url.startsWith('/jwks')) jwksFetches += 1;
  if (provider && req.url.startsWith('/interaction/')) {
    interact(provider, req, res).catch((error) => {
      res.statusCode = 400;
      res.end(String(error));
    });
    return;
  }
  handler(req, res);
});
server.listen(port, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = configure(issuer);
  handler = provider.callback();
  console.log(JSON.stringify({
    issuer,
    kid,
    private_pem: privateKey.export({ type: 'pkcs1', format: 'pem' }),
    public_pem: publicKey.export({ type: 'spki', format: 'pem' }),
    es_kid: esKid,
    es_private_pem: es.privateKey.export({ type: 'pkcs8', format: 'pem' }),
  }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
