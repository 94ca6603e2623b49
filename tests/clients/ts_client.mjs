// Drives an MCP server with the official TypeScript client (@modelcontextprotocol/client v2), over
// stdio (StdioClientTransport) or Streamable HTTP (StreamableHTTPClientTransport).
//
//   node tests/clients/ts_client.mjs <legacy|auto|modern> <server command> [args...]
//   node tests/clients/ts_client.mjs <legacy|auto|modern> --url http://127.0.0.1:PORT/mcp
//
// legacy: plain `initialize` handshake; auto: `server/discover` probe, fallback to `initialize`;
// modern: pinned to 2026-07-28. The server is expected to be the catalog example with
// CATALOG_TEST_TOOLS=1 (for the `wait` tool). One line per check; exit 1 if any failed.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks, text, same as deepEqual } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, era: 'legacy', versions: ['2025-11-25'] },
    auto: { negotiation: { mode: 'auto' }, era: 'modern', versions: ['2026-07-28'] },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, era: 'modern', versions: ['2026-07-28'] }
};
const CATALOG_TOOLS = ['search', 'product-details', 'get-weather', 'echo', 'clear-catalog'];

const [modeName, command, ...args] = process.argv.slice(2);
const mode = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!mode || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_client.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}

const label = `ts/${url ? 'http' : 'stdio'}/${modeName}`;

const checks = new Checks(label);
const check = checks.check;

// Over HTTP, every request the transport makes, with what became of it: the JSON-RPC message it
// carried, its status, whether the client aborted it and whether its body was read to the end.
const exchanges = [];

async function recordingFetch(input, init) {
    const exchange = { method: init?.method, message: init?.body ? JSON.parse(init.body) : undefined, aborted: false };
    exchanges.push(exchange);
    init?.signal?.addEventListener('abort', () => (exchange.aborted = true), { once: true });
    const response = await fetch(input, init);
    exchange.status = response.status;
    exchange.contentType = response.headers.get('content-type');
    if (!response.body) {
        exchange.ended = true;
        return response;
    }
    const body = response.body.pipeThrough(new TransformStream({ flush: () => void (exchange.ended = true) }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function until(condition, milliseconds) {
    for (const deadline = Date.now() + milliseconds; !condition() && Date.now() < deadline; ) {
        await new Promise(resolve => setTimeout(resolve, 20));
    }
    return condition();
}

async function main() {
    const transport = url
        ? new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch })
        : // The SDK hands the child only a few "safe" variables by default; the catalog needs ours.
          new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const client = new Client({ name: 'mcp-toolbelt-ts-check', version: '0.0.0' }, { versionNegotiation: mode.negotiation });

    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    await client.connect(transport, { timeout: 10_000 });
    check('era negotiated', client.getProtocolEra() === mode.era, `expected ${mode.era}, got ${client.getProtocolEra()}`);
    const version = client.getNegotiatedProtocolVersion();
    check('protocol version', mode.versions.includes(version), `expected one of ${mode.versions}, got ${version}`);
    check('server info', client.getServerVersion()?.name === 'catalog', client.getServerVersion());
    check('server advertises tools', client.getServerCapabilities()?.tools !== undefined, client.getServerCapabilities());

    // Watch the wire under the SDK: what we send, what comes back. Incoming messages are handed
    // to the SDK one per event-loop turn, as if each had come in its own read: the SDK (2.4.0)
    // defers notification handlers to a microtask but handles a response at once, so progress
    // notifications that arrive in the same read as their response reach a retired token and are
    // dropped ("Received a progress notification for an unknown token",
    // modelcontextprotocol/typescript-sdk#2580). Order and content are unchanged.
    const sent = [];
    const received = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        sent.push(message);
        return send(message, options);
    };
    const onmessage = transport.onmessage;
    let delivered = Promise.resolve();
    transport.onmessage = (message, extra) => {
        received.push(message);
        delivered = delivered.then(() => {
            onmessage?.(message, extra);
            return new Promise(resolve => setImmediate(resolve));
        });
    };

    // tools/list
    const { tools } = await client.listTools();
    const names = tools.map(tool => tool.name);
    check('tools/list has the catalog tools', CATALOG_TOOLS.every(name => names.includes(name)), names);
    const search = tools.find(tool => tool.name === 'search');
    check('search inputSchema has query', search?.inputSchema?.properties?.query?.type === 'string', search?.inputSchema);
    check('search is read-only', search?.annotations?.readOnlyHint === true, search?.annotations);
    const weather = tools.find(tool => tool.name === 'get-weather');
    check('get-weather has title and outputSchema', weather?.title === 'Get Weather' && weather?.outputSchema?.type === 'object', weather);
    check(
        'get-weather icons: a URL and a data: URI',
        deepEqual(weather?.icons?.[0], { src: 'https://example.com/icons/weather.png', mimeType: 'image/png', sizes: ['48x48'] }) &&
            weather?.icons?.[1]?.src?.startsWith('data:image/svg+xml;base64,') &&
            weather?.icons?.[1]?.theme === 'light' &&
            deepEqual(weather?.icons?.[1]?.sizes, ['any']),
        weather?.icons
    );

    // Each tool.
    let result = await client.callTool({ name: 'search', arguments: { query: 'mug' } });
    check('search', !result.isError && text(result) === 'Travel mug\nMug rack', result);
    result = await client.callTool({ name: 'search', arguments: { query: 'mug', limit: 1 } });
    check('search with limit', !result.isError && text(result) === 'Travel mug', result);
    result = await client.callTool({ name: 'product-details', arguments: { name: 'Travel mug' } });
    check(
        'product-details structuredContent',
        !result.isError && deepEqual(result.structuredContent, { name: 'Travel mug', price: 24 }),
        result
    );
    check('product-details text is its JSON', deepEqual(JSON.parse(text(result) || 'null'), result.structuredContent), result);
    result = await client.callTool({ name: 'product-details', arguments: { name: 'Teapot' } });
    check('product-details unknown name is isError', result.isError === true && text(result).includes('Teapot'), result);
    result = await client.callTool({ name: 'get-weather', arguments: { location: 'Paris' } });
    check(
        'get-weather',
        !result.isError && result.structuredContent?.temperatureC === 22 && result.structuredContent?.summary === 'Paris: partly cloudy',
        result
    );
    result = await client.callTool({ name: 'echo', arguments: { message: 'hello, world' } });
    check('echo', !result.isError && text(result) === 'hello, world', result);
    result = await client.callTool({ name: 'clear-catalog', arguments: {} });
    check('clear-catalog', !result.isError && text(result) === 'Catalog cleared', result);

    // Arguments that fail the input schema: a tool execution error, not a protocol error.
    result = await client.callTool({ name: 'search', arguments: { query: 'mug', limit: 'x' } });
    check(
        'invalid arguments are isError',
        result.isError === true && text(result).startsWith('Input validation error: Invalid arguments for tool search:'),
        result
    );
    // An unknown tool: a JSON-RPC error.
    try {
        result = await client.callTool({ name: 'no-such-tool', arguments: {} });
        check('unknown tool is a protocol error', false, result);
    } catch (error) {
        check('unknown tool is a protocol error', error.code === -32602 && /no-such-tool/.test(error.message), `${error.code} ${error.message}`);
    }

    // Progress: the SDK sets a progressToken when given onprogress.
    const progress = [];
    result = await client.callTool(
        { name: 'search', arguments: { query: 'cup' } },
        { onprogress: update => progress.push(update) }
    );
    check('search with progress', !result.isError && text(result) === 'Espresso cup', result);
    check('progress notifications arrived', progress.length >= 1, progress);
    check(
        'progress increases',
        progress.every((update, index) => index === 0 || update.progress > progress[index - 1].progress),
        progress
    );
    check('progress has total 3', progress.every(update => update.total === 3), progress);
    // The same, on the wire: every notification for the call's token precedes its response.
    const searchRequest = sent.findLast(message => message.method === 'tools/call' && message.params?.name === 'search');
    const token = searchRequest?.params?._meta?.progressToken;
    const responseAt = received.findIndex(message => message.id === searchRequest?.id);
    const wireProgress = received
        .map((message, index) => ({ message, index }))
        .filter(({ message }) => message.method === 'notifications/progress' && message.params?.progressToken === token);
    check(
        'progress on the wire precedes the response',
        token !== undefined && wireProgress.length === 3 && wireProgress.every(({ index }) => index < responseAt),
        { token, responseAt, wireProgress }
    );
    if (url) {
        const post = exchanges.find(exchange => exchange.message?.id === searchRequest?.id);
        check('progress came on an SSE stream', post?.status === 200 && /^text\/event-stream/.test(post?.contentType), post);
    }

    // Cancellation: abort a long call through its AbortSignal.
    const controller = new AbortController();
    const started = Date.now();
    const call = client.callTool({ name: 'wait', arguments: { seconds: 30 } }, { signal: controller.signal, timeout: 60_000 });
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 300);
    try {
        result = await call;
        check('wait is cancelled', false, result);
    } catch (error) {
        const elapsed = Date.now() - started;
        check('wait is cancelled', /cancelled by the test/.test(String(error?.message ?? error)), String(error));
        check('cancellation is quick', elapsed < 5_000, `${elapsed} ms`);
    }
    const waitRequest = sent.find(message => message.method === 'tools/call' && message.params?.name === 'wait');
    const cancelled = sent.find(message => message.method === 'notifications/cancelled');
    const waitPost = exchanges.find(exchange => waitRequest !== undefined && exchange.message?.id === waitRequest.id);
    if (url && mode.era === 'modern') {
        // 2026-07-28 over HTTP: closing the call's response stream is the cancellation.
        check('no notifications/cancelled in 2026-07-28', cancelled === undefined, cancelled);
        check("the call's POST was aborted", waitPost?.aborted === true && waitPost.status === undefined, waitPost);
    } else {
        check('notifications/cancelled sent for it', waitRequest !== undefined && cancelled?.params?.requestId === waitRequest.id, cancelled);
    }
    if (url && mode.era === 'legacy') {
        // The server stops the call: its POST's event stream ends without a response (checked
        // below); a server that ignored the cancel would keep it open for the 30 s the tool waits.
        const ended = await until(() => waitPost?.status === 200 && waitPost.ended, 2_000);
        check("the call's POST ended without a response", ended && !waitPost.aborted, waitPost);
    }
    result = await client.callTool({ name: 'echo', arguments: { message: 'still here' } });
    check('server still serves after the cancel', !result.isError && text(result) === 'still here', result);
    // The cancelled request gets no response (spec: the receiver SHOULD NOT respond).
    await new Promise(resolve => setTimeout(resolve, 200));
    check(
        'no response to the cancelled request',
        !received.some(message => waitRequest !== undefined && message.id === waitRequest.id),
        received.filter(message => message.id === waitRequest?.id)
    );

    if (url && mode.era === 'legacy') {
        // The session's GET stream (for list_changed) stays open: the SDK reopens a stream that ends.
        const streams = exchanges.filter(exchange => exchange.method === 'GET');
        check('one GET stream, still open', streams.length === 1 && streams[0].status === 200 && !streams[0].ended, streams);
    }
    check('the SDK reported no errors', complaints.length === 0, complaints);
    await client.close();
}

const watchdog = setTimeout(() => {
    console.log(`FAIL ${label} timed out`);
    process.exit(1);
}, 60_000);
watchdog.unref();

try {
    await main();
} catch (error) {
    checks.failed = true;
    console.log(`FAIL ${label} unexpected error: ${error?.stack ?? error}`);
}
console.log(checks.failed ? `${label}: FAILED` : `${label}: all checks passed`);
process.exit(checks.failed ? 1 : 0);
