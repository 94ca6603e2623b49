// The official TypeScript client's OAuth flow, end to end, against the secured example
// (examples/secured, `--oauth-issuer`) and a real authorization server (tests/oauth/provider.mjs):
//
//   node tests/clients/ts_oauth.mjs <legacy|modern> http://127.0.0.1:PORT/mcp
//
// The SDK's own auth machinery (`StreamableHTTPClientTransport` with an `OAuthClientProvider`)
// does every step: the server's `401` → its protected-resource metadata (RFC 9728) → the
// authorization server's metadata → dynamic client registration (RFC 7591) → an authorization
// code with PKCE (S256) for the server's resource (RFC 8707) → the token → the calls. This script
// plays the user's browser: it follows the authorization URL the SDK hands it, answers the
// provider's login and consent (user `alice`, who first grants `notes:read` only), and gives the
// code it is redirected with back to the SDK (`finishAuth`). Then `add_note` is refused `403`
// `insufficient_scope` and the SDK steps up by itself: a new authorization for the scopes it had
// and the one the challenge names, after which the call is served.
//
// Every request the SDK makes goes through a fetch that records it, so the steps are checked as
// they were on the wire. One line per check; exit 1 if any failed.

import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Checks, same } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};

const [modeName, url] = process.argv.slice(2);
const mode = MODES[modeName];
if (!mode || !url) {
    console.error(`usage: ts_oauth.mjs <${Object.keys(MODES).join('|')}> <server URL>`);
    process.exit(2);
}
const checks = new Checks(`ts/oauth/${modeName}`);
const check = checks.check;

/** Where the authorization server sends the browser back: nothing listens, the script reads the redirect. */
const REDIRECT_URL = 'http://127.0.0.1:9/callback';

/** What the user consents to at the next authorization: `null`, everything asked. */
let consentTo = ['notes:read'];

/** Every request the SDK made: `METHOD path status`, and the authorization URLs it handed over. */
const wire = [];
const authorizations = [];
const recordingFetch = async (input, init) => {
    const response = await fetch(input, init);
    const target = new URL(input instanceof Request ? input.url : String(input));
    wire.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${target.pathname} ${response.status}`);
    return response;
};

/** The browser's cookies at the authorization server (its login session), by name. */
const cookies = new Map();
async function browse(target, init = {}) {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
}

/**
 * The user at the authorization URL: follows its redirects to the provider's login and consent
 * page, answers it (user `alice`, the scopes `consentTo` says), and follows on until the provider
 * redirects to `REDIRECT_URL`; that URL's query (the code, `state`, `iss`).
 */
async function userAuthorizes(authorizationUrl) {
    let target = authorizationUrl;
    for (let hops = 0; hops < 10; hops += 1) {
        if (target.startsWith(REDIRECT_URL)) return new URL(target).searchParams;
        let response = await browse(target);
        if (new URL(target).pathname.startsWith('/interaction/')) {
            const asked = await response.json();
            const granted = consentTo ?? asked.scope;
            response = await browse(target, {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams({ login: 'alice', scope: granted.join(' ') })
            });
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`${target}: ${response.status}, no redirect: ${await response.text()}`);
        target = new URL(location, target).href;
    }
    throw new Error('too many redirects');
}

/** The SDK's `OAuthClientProvider`: kept in memory, the browser played by `userAuthorizes`. */
class ScriptProvider {
    stored = {};
    callback = undefined;
    get redirectUrl() {
        return REDIRECT_URL;
    }
    get clientMetadata() {
        return {
            client_name: 'mcp-toolbelt ts_oauth',
            redirect_uris: [REDIRECT_URL],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none'
        };
    }
    clientInformation() {
        return this.stored.client;
    }
    saveClientInformation(client) {
        this.stored.client = client;
    }
    tokens() {
        return this.stored.tokens;
    }
    saveTokens(tokens) {
        this.stored.tokens = tokens;
    }
    saveCodeVerifier(verifier) {
        this.stored.verifier = verifier;
    }
    codeVerifier() {
        return this.stored.verifier;
    }
    saveDiscoveryState(state) {
        this.stored.discovery = state;
    }
    discoveryState() {
        return this.stored.discovery;
    }
    async redirectToAuthorization(authorizationUrl) {
        authorizations.push(authorizationUrl);
        this.callback = await userAuthorizes(authorizationUrl.href);
    }
}

const provider = new ScriptProvider();
const transport = () => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: recordingFetch });

/** `run()`, and once more after the SDK sent the user to authorize (it throws `UnauthorizedError`). */
async function authorizing(what, current, run) {
    try {
        return await run();
    } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
        check(`${what}: the SDK sent the user to authorize`, provider.callback?.get('code'), String(error));
        await current.finishAuth(provider.callback);
        return await run();
    }
}

const structured = result => result?.structuredContent;
const paths = () => wire.map(line => line.replace(/ \d+$/, ''));

// ---- 401 → discovery → registration → PKCE code → token → connected ------------------------
let current = transport();
let client = new Client({ name: 'mcp-toolbelt-ts-oauth', version: '0.0.0' }, { versionNegotiation: mode.negotiation });
try {
    await client.connect(current, { timeout: 10_000 });
} catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    check('connect: the SDK sent the user to authorize', provider.callback?.get('code'), String(error));
    await current.finishAuth(provider.callback);
    current = transport();
    client = new Client({ name: 'mcp-toolbelt-ts-oauth', version: '0.0.0' }, { versionNegotiation: mode.negotiation });
    await client.connect(current, { timeout: 10_000 });
}
check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());

const issuer = new URL(authorizations[0]?.href ?? 'http://x').origin;
const first = wire.findIndex(line => line.startsWith('POST /mcp 401'));
const order = [
    'POST /mcp 401',
    'GET /.well-known/oauth-protected-resource/mcp 200',
    'GET /.well-known/oauth-authorization-server 200',
    'POST /reg 201',
    'POST /token 200',
    'POST /mcp 200'
];
let at = first;
const inOrder = first >= 0 && order.every(step => (at = wire.indexOf(step, at)) >= 0);
check('401 → resource metadata → issuer metadata → registration → token → served, in that order', inOrder, wire);
const authorization = authorizations[0]?.searchParams;
check(
    'the authorization request: a PKCE code (S256) for the server as resource, by the registered client',
    authorization?.get('response_type') === 'code' &&
        authorization?.get('code_challenge_method') === 'S256' &&
        authorization?.get('code_challenge')?.length >= 43 &&
        authorization?.get('resource') === url &&
        authorization?.get('client_id') === provider.stored.client?.client_id &&
        provider.stored.client?.client_id !== undefined,
    authorizations[0]?.href
);
check('the token is a JWT the provider issued', provider.stored.tokens?.access_token?.split('.').length === 3, provider.stored.tokens);

// ---- calls with the token: what notes:read allows ------------------------------------------
const who = structured(await client.callTool({ name: 'whoami', arguments: {} }));
check(
    'whoami: the user, the registered client, the scope granted',
    who?.subject === 'alice' && who?.clientId === provider.stored.client?.client_id && same(who?.scopes, ['notes:read']),
    who
);
const names = async options => (await client.listTools(undefined, options)).tools.map(tool => tool.name).sort();
check('tools/list: what notes:read allows', same(await names(), ['list_notes', 'whoami']), await names());
check('list_notes is served', same(structured(await client.callTool({ name: 'list_notes', arguments: {} })), { notes: [] }));
const read = await client.readResource({ uri: 'secured://notes' });
check('secured://notes is read', read.contents?.[0]?.text?.includes('No notes yet'), read);
const prompt = await client.getPrompt({ name: 'summarise', arguments: {} });
check('summarise is got', prompt.messages?.[0]?.content?.text?.startsWith('Summarise these notes'), prompt);

// ---- add_note: 403 insufficient_scope → the SDK steps up → served ------------------------
consentTo = null;
const before = wire.length;
const added = await authorizing('add_note', current, () =>
    client.callTool({ name: 'add_note', arguments: { title: 'Groceries', body: 'eggs' } })
);
check('add_note was refused 403 first', wire.slice(before).includes('POST /mcp 403'), wire.slice(before));
const stepUp = authorizations[1]?.searchParams;
check(
    'the step-up asks for the scopes held and the one the challenge named',
    same(stepUp?.get('scope')?.split(' ').sort(), ['notes:read', 'notes:write']) && stepUp?.get('resource') === url,
    authorizations[1]?.href
);
check('add_note is served after the step-up', structured(added)?.title === 'Groceries' && structured(added)?.author === 'alice', added);
const after = structured(await client.callTool({ name: 'whoami', arguments: {} }));
check('whoami: the new token, the same user and client', after?.subject === 'alice' && same(after?.scopes?.sort(), ['notes:read', 'notes:write']), after);
// A 2026-07-28 client keeps the listing it was given (`cacheScope: "private"`) for its user, who
// is the same after the step-up: a host lists again once its token changed.
const refresh = { cacheMode: 'refresh' };
check('tools/list now shows add_note', same(await names(refresh), ['add_note', 'list_notes', 'whoami']), await names(refresh));
check('registered once', wire.filter(line => line.startsWith('POST /reg')).length === 1, paths());
check('the authorization server is the one the metadata named', issuer.startsWith('http://127.0.0.1:'), issuer);

await client.close();
process.exit(checks.failed ? 1 : 0);
