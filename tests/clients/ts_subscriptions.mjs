// Subscribes to a resource with the official TypeScript client (@modelcontextprotocol/client v2)
// against the conformance example, and checks that it hears what changes: `resources/subscribe` on
// a legacy connection, `subscriptions/listen` with `resourceSubscriptions` on a 2026-07-28 one.
//
//   node tests/clients/ts_subscriptions.mjs <legacy|modern> <server command> [args...]
//   node tests/clients/ts_subscriptions.mjs <legacy|modern> --url http://127.0.0.1:PORT/mcp
//
// The example's tool `test_update_watched_resource` changes `test://watched-resource`;
// `test_trigger_resource_change` adds or removes `test://dynamic-resource`. Each is called an
// even number of times in all, so a run leaves the server as it found it.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks, same } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};
const WATCHED = 'test://watched-resource';
const DYNAMIC = 'test://dynamic-resource';

const [modeName, command, ...args] = process.argv.slice(2);
const mode = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!mode || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_subscriptions.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}
const label = `ts/${url ? 'http' : 'stdio'}/${modeName}/subscriptions`;
const checks = new Checks(label);
const check = checks.check;

// What the client heard, in order: `{updated: uri}` or `{listChanged: true}`.
const heard = [];
let wake = () => {};

async function next(milliseconds) {
    if (heard.length === 0) {
        await new Promise(resolve => {
            const timer = setTimeout(resolve, milliseconds);
            wake = () => {
                clearTimeout(timer);
                resolve();
            };
        });
    }
    return heard.shift();
}

async function watchedText(client) {
    const read = await client.readResource({ uri: WATCHED });
    return read.contents[0]?.text ?? '';
}

async function legacy(client) {
    const resources = client.getServerCapabilities()?.resources;
    check('resources capability: subscribe and listChanged', resources?.subscribe === true && resources?.listChanged === true, resources);
    await client.subscribeResource({ uri: WATCHED });
    const before = await watchedText(client);
    // Over HTTP the session's GET stream may open after the first update: call until one is heard.
    let event;
    for (let attempt = 0; attempt < 20 && event === undefined; attempt++) {
        await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
        event = await next(500);
    }
    check('subscribed: resources/updated for the watched resource', same(event, { updated: WATCHED }), event);
    const after = await watchedText(client);
    check('it reads the new contents', after !== before && after.includes('version'), [before, after]);
    while ((await next(200)) !== undefined) {
        // updates of the calls that went before the one heard
    }

    await client.callTool({ name: 'test_trigger_resource_change', arguments: {} });
    event = await next(10_000);
    check('resources/list_changed when a resource is added', same(event, { listChanged: true }), event);
    const listed = (await client.listResources()).resources.map(resource => resource.uri);
    check('the added resource is listed', listed.includes(DYNAMIC), listed);

    await client.unsubscribeResource({ uri: WATCHED });
    await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    await client.callTool({ name: 'test_trigger_resource_change', arguments: {} });
    event = await next(10_000);
    check('unsubscribed: the next thing heard is the list change, not an update', same(event, { listChanged: true }), event);
}

async function modern(client) {
    const subscription = await client.listen({ resourcesListChanged: true, resourceSubscriptions: [WATCHED, 'test://nothing'] });
    const honored = subscription.honoredFilter;
    check(
        'listen honours the served URI and the list',
        same(honored.resourceSubscriptions, [WATCHED]) && honored.resourcesListChanged === true,
        honored
    );
    const before = await watchedText(client);
    await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    let event = await next(10_000);
    check('resources/updated for the watched resource', same(event, { updated: WATCHED }), event);
    const after = await watchedText(client);
    check('it reads the new contents', after !== before && after.includes('version'), [before, after]);
    for (const step of ['added', 'removed']) {
        await client.callTool({ name: 'test_trigger_resource_change', arguments: {} });
        event = await next(10_000);
        check(`resources/list_changed when a resource is ${step}`, same(event, { listChanged: true }), event);
    }
    // Even calls of the update tool in all: one more.
    await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    event = await next(10_000);
    check('a second update is heard too', same(event, { updated: WATCHED }), event);
    await subscription.close();
}

async function main() {
    const transport = url
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const client = new Client({ name: 'mcp-toolbelt-ts-subscriptions', version: '0.0.0' }, { versionNegotiation: mode.negotiation });
    client.setNotificationHandler('notifications/resources/updated', notification => {
        heard.push({ updated: notification.params.uri });
        wake();
    });
    client.setNotificationHandler('notifications/resources/list_changed', () => {
        heard.push({ listChanged: true });
        wake();
    });
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    await client.connect(transport, { timeout: 10_000 });
    const version = client.getNegotiatedProtocolVersion();
    check('protocol version', version === mode.version, `expected ${mode.version}, got ${version}`);
    if (modeName === 'legacy') {
        await legacy(client);
    } else {
        await modern(client);
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
