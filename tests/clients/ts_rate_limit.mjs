// Meets a server's rate limit with the official TypeScript client (@modelcontextprotocol/client v2:
// `Client` on its own StreamableHTTPClientTransport, or over stdio), as an application would: calls
// until one is refused, checks what the SDK threw, waits what the server said, and calls again.
//
//   node tests/clients/ts_rate_limit.mjs <legacy|modern> --url URL                  # limited --http ... --rate-limit 3/s
//   node tests/clients/ts_rate_limit.mjs <legacy|modern> <server command> [args...] # limited --rate-limit 3/s
//
// The server is tests/src/bin/limited.rs (its `echo` tool) with `--rate-limit 3/s`. Over HTTP the SDK
// (2.4.0) throws the `429` as an `SdkHttpError` with the status and the body's text (the JSON-RPC
// error `-32029` left unparsed in `data.text`), and without its headers: the script reads
// `Retry-After` through the transport's `fetch` option. Over stdio it throws a `ProtocolError` with
// code -32029. One line per check; exit 1 if any failed.

import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks, text } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};
const LIMIT = '3/s';
// At 3/s a request's place comes back every 334 ms at most.
const MAX_RETRY_AFTER_MS = 334;
const MAX_CALLS = 50;

const [modeName, command, ...args] = process.argv.slice(2);
const mode = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!mode || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_rate_limit.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}
const label = `ts/${url ? 'http' : 'stdio'}/${modeName}/rate-limit`;
const checks = new Checks(label);
const check = checks.check;

// Over HTTP, each POST: the JSON-RPC message it carried, its status and `Retry-After`.
const posts = [];

async function watchingFetch(input, init) {
    const response = await fetch(input, init);
    if (init?.method === 'POST') {
        posts.push({ message: JSON.parse(init.body), status: response.status, retryAfter: response.headers.get('retry-after') });
    }
    return response;
}

const sleep = milliseconds => new Promise(resolve => setTimeout(resolve, milliseconds));

async function main() {
    const transport = url
        ? new StreamableHTTPClientTransport(new URL(url), { fetch: watchingFetch })
        : new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const client = new Client({ name: 'mcp-toolbelt-ts-rate-limit', version: '0.0.0' }, { versionNegotiation: mode.negotiation });
    const reported = [];
    client.onerror = error => reported.push(error);
    await client.connect(transport, { timeout: 10_000 });
    const version = client.getNegotiatedProtocolVersion();
    check('protocol version', version === mode.version, version);
    const sessionId = transport.sessionId;

    // Listed first: a 2026-07-28 call mirrors its tool's declared headers, read from the listing.
    const { tools } = await client.listTools();
    check('echo is listed', tools.some(tool => tool.name === 'echo'), tools.map(tool => tool.name));

    let refused;
    let answered = 0;
    for (let attempt = 0; attempt < MAX_CALLS && refused === undefined; attempt++) {
        try {
            const result = await client.callTool({ name: 'echo', arguments: { text: `call ${attempt}` } });
            if (!check(`call ${attempt} answered`, !result.isError && text(result) === `call ${attempt}`, result)) return;
            answered++;
        } catch (error) {
            refused = error;
        }
    }
    if (!check(`a burst past ${LIMIT} is refused`, refused !== undefined, `${answered} calls answered`)) return;
    console.log(
        `info ${label} after ${answered} calls the SDK threw ${refused?.constructor?.name} ${JSON.stringify({
            name: refused.name,
            code: refused.code,
            message: refused.message,
            data: refused.data
        })}`
    );

    let error;
    let wait;
    if (url) {
        check('an SdkHttpError', refused instanceof SdkHttpError, String(refused));
        check('its status: 429 Too Many Requests', refused.status === 429 && refused.statusText === 'Too Many Requests', refused.data);
        // The SDK keeps the body as text: the JSON-RPC error of the refused request.
        let body;
        try {
            body = JSON.parse(refused.data?.text);
        } catch {
            body = undefined;
        }
        const post = posts.findLast(post => post.message?.method === 'tools/call');
        check('its body: the JSON-RPC error of the refused call', body?.jsonrpc === '2.0' && body?.id === post?.message?.id, refused.data);
        error = body?.error;
        const millis = error?.data?.retryAfterMs;
        check('on the wire: 429', post?.status === 429, post);
        check(
            'Retry-After: retryAfterMs in seconds, rounded up',
            Number.isInteger(millis) && post?.retryAfter === String(Math.ceil(millis / 1000)),
            { retryAfter: post?.retryAfter, millis }
        );
        wait = Number(post?.retryAfter) * 1000;
        check(
            'the transport also reported it to onerror',
            reported.includes(refused),
            reported.map(String)
        );
    } else {
        check('a ProtocolError', refused instanceof ProtocolError, String(refused));
        error = { code: refused.code, message: refused.message, data: refused.data };
        wait = error.data?.retryAfterMs;
    }
    check('code -32029', error?.code === -32029, error);
    check(
        'its message names the limit',
        typeof error?.message === 'string' &&
            error.message.startsWith(`Rate limit exceeded: the server's limit is ${LIMIT} per caller; retry after `),
        error?.message
    );
    const millis = error?.data?.retryAfterMs;
    check('data.retryAfterMs: the wait, in milliseconds', Number.isInteger(millis) && millis >= 1 && millis <= MAX_RETRY_AFTER_MS, error?.data);
    if (!Number.isFinite(wait)) return;
    await sleep(wait);

    const result = await client.callTool({ name: 'echo', arguments: { text: 'after the wait' } });
    check('after the wait the next call is answered', !result.isError && text(result) === 'after the wait', result);
    if (url && modeName === 'legacy') {
        check('the session is kept', sessionId !== undefined && transport.sessionId === sessionId, { before: sessionId, after: transport.sessionId });
    }
    await client.close();
}

const timer = setTimeout(() => {
    console.log(`FAIL ${label} timed out`);
    process.exit(1);
}, 30_000);
try {
    await main();
} catch (error) {
    checks.failed = true;
    console.log(`FAIL ${label} unexpected error: ${error?.stack ?? error}`);
}
clearTimeout(timer);
console.log(`${label}: ${checks.failed ? 'FAILED' : 'all checks passed'}`);
process.exit(checks.failed ? 1 : 0);
