// The authorization server of tests/tests/oauth.rs: the npm package `oidc-provider` (OpenID
// Certified) on 127.0.0.1, issuing client-credentials access tokens for one resource (RFC 8707
// resource indicators): JWTs signed RS256 for `jwt-client`, opaque tokens (for introspection) for
// `opaque-client`; `resource-server` is the MCP server's own client, which introspects.
//
//   node provider.mjs --resource URI [--port PORT]
//
// Prints one JSON line on stdout once it listens: the issuer, and the signing key (a fresh RSA
// key each start, its `kid` new: restarting on the same port is a key rotation) as PEM, private
// and public, so the test forges tokens signed by the very key the JWKS publishes.
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
  ],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] },
  scopes,
  features: {
    devInteractions: { enabled: false },
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
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});

// The issuer names the port, so listen first, then build the provider on that port.
const { createServer } = await import('node:http');
let handler = (_req, res) => { res.statusCode = 503; res.end(); };
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
  handler(req, res);
});
server.listen(port, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = configure(issuer);
  handler = provider.callback();
  console.log(JSON.stringify({
    issuer,
    kid,
    private_pem: privateKey.export({ type: 'pkcs1', format: 'pem' }),
    public_pem: publicKey.export({ type: 'spki', format: 'pem' }),
  }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
