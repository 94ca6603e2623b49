// Drives the apps example (MCP Apps: tools with views) with the official TypeScript client
// (@modelcontextprotocol/client v2), over stdio or Streamable HTTP, declaring the extension
// (`io.modelcontextprotocol/ui`) as a host that renders views does.
//
//   node tests/clients/ts_apps.mjs <legacy|auto|modern> <server command> [args...]
//   node tests/clients/ts_apps.mjs <legacy|auto|modern> --url http://127.0.0.1:PORT/mcp
//
// One line per check; exit 1 if any failed.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks, text } from './checks.mjs';

const MODES = {
    legacy: { mode: 'legacy' },
    auto: { mode: 'auto' },
    modern: { mode: { pin: '2026-07-28' } }
};
const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

const [modeName, command, ...args] = process.argv.slice(2);
const negotiation = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!negotiation || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_apps.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}

const label = `ts-apps/${url ? 'http' : 'stdio'}/${modeName}`;

const checks = new Checks(label);
const check = checks.check;

async function main() {
    const transport = url
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const client = new Client(
        { name: 'mcp-toolbelt-ts-apps', version: '0.0.0' },
        {
            versionNegotiation: negotiation,
            capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [VIEW_MIME_TYPE] } } }
        }
    );
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    await client.connect(transport, { timeout: 10_000 });
    const capabilities = client.getServerCapabilities() ?? {};
    check('server advertises resources', capabilities.resources !== undefined, capabilities);
    check('server advertises the extension', capabilities.extensions?.['io.modelcontextprotocol/ui'] !== undefined, capabilities);

    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map(tool => [tool.name, tool]));
    const albums = byName['show-albums'];
    check('show-albums names its view', albums?._meta?.ui?.resourceUri === 'ui://albums/view.html', albums?._meta);
    check('show-albums has the deprecated flat key', albums?._meta?.['ui/resourceUri'] === 'ui://albums/view.html', albums?._meta);
    check('show-albums is for model and app', JSON.stringify(albums?._meta?.ui?.visibility) === '["model","app"]', albums?._meta);
    const review = byName['review'];
    check('review is listed, for the app only', JSON.stringify(review?._meta?.ui) === '{"visibility":["app"]}', review?._meta);
    check('review-purchase names its view', byName['review-purchase']?._meta?.ui?.resourceUri === 'ui://review/purchase.html', byName['review-purchase']);

    const { resources } = await client.listResources();
    for (const uri of ['ui://albums/view.html', 'ui://review/purchase.html']) {
        const listed = resources.find(resource => resource.uri === uri);
        check(`${uri} is listed as a view`, listed?.mimeType === VIEW_MIME_TYPE && listed?._meta?.ui?.prefersBorder === true, listed);
        const { contents } = await client.readResource({ uri });
        const [content] = contents;
        check(
            `${uri} reads as HTML with its MIME type`,
            contents.length === 1 && content.uri === uri && content.mimeType === VIEW_MIME_TYPE && content.text.startsWith('<!doctype html>'),
            content && { ...content, text: content.text?.slice(0, 40) }
        );
    }
    try {
        await client.readResource({ uri: 'ui://no/such/view.html' });
        check('an unknown URI is an error', false);
    } catch (error) {
        check('an unknown URI is -32602', error.code === -32602, { code: error.code, message: error.message });
    }

    let result = await client.callTool({ name: 'show-albums', arguments: { artist: 'davis' } });
    check(
        'show-albums gives the albums',
        !result.isError && result.structuredContent?.albums?.length === 1 && result.structuredContent.albums[0].title === 'Kind of Blue',
        result
    );
    result = await client.callTool({ name: 'review-purchase', arguments: { item: 'Travel mug', quantity: 2 } });
    check(
        'review-purchase shows the order, to be confirmed in the view',
        !result.isError && result.structuredContent?.order?.total === 48 && text(result).includes('in the view'),
        result
    );
    const decidedAt = '2026-12-01T12:00:00Z';
    const payload = result.structuredContent?.order;
    result = await client.callTool({ name: 'review', arguments: { action: 'purchase', confirmed: true, decidedAt, payload } });
    check(
        'review confirmed',
        !result.isError && text(result) === 'Completed.' && result.structuredContent?.status === 'completed',
        result
    );
    result = await client.callTool({ name: 'review', arguments: { action: 'purchase', confirmed: false, decidedAt } });
    check(
        'review cancelled',
        !result.isError && text(result) === 'Cancelled.' && result.structuredContent?.status === 'cancelled',
        result
    );
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
