// A real MCP Apps host for one view of the apps example (tests/tests/served/views.rs): headless Chromium
// (driven by Playwright) runs a page with the official TypeScript client and the official host
// bridge (`AppBridge` from @modelcontextprotocol/ext-apps), bundled for the browser by esbuild.
// The page connects to the real server, reads the view, renders it in a sandboxed iframe, calls
// the tool and hands the view its input and result, and forwards the view's `tools/call` to the
// server; then it does what the scenario asks (real clicks, host requests) and reports.
//
//   node tests/views/host.mjs <chromium> <MCP endpoint URL> <scenarios: a JSON array>
//
// Each scenario, in a page of its own (one browser for all): { era, tool, arguments, uri,
// layout?, screenshot?, actions: [...] }, or { unframed: <path of a view's HTML> } for the view
// opened on its own, outside any host; era "legacy" or "modern" (2026-07-28), the client's
// to the server; layout "frame" (the default: the view in the host's sandboxed iframe) or
// "proxy" (the spec's cross-origin sandbox proxy between them, tests/views/sandbox-proxy.html).
// Actions, in order:
//   "forge"          another window posts a forged tool result to the view, and a forged reply
//                    to its next `tools/call` while that is pending
//   "requests"       the host sends `ping` and an unknown method to the view
//   "click:<id>"     clicks button #id in the view and waits for #outcome to be filled
//   "ping-during-call"  with a click after it: while the view's `tools/call` is pending, the host
//                    pings the view with the same JSON-RPC id, then forwards the call to the server
//   "result"         the tool's result again (`ui/notifications/tool-result`)
//   "result-during-call"  with a click after it: the same while the view's `tools/call` is pending
//   "tool-cancelled" `ui/notifications/tool-cancelled`
//   "teardown"       `ui/resource-teardown`, as a host does before it removes the view
// The reports (stdout, a JSON array, one object a scenario): what the view shows, its sizes, its
// capabilities, the messages each way, each action's outcome, and `failures` (what did not
// happen in time).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const [browserPath, endpoint, scenariosText] = process.argv.slice(2);
if (!scenariosText) {
    console.error('usage: host.mjs <chromium> <MCP endpoint URL> <scenarios: a JSON array>');
    process.exit(2);
}
const scenarios = JSON.parse(scenariosText);
/** How long the host waits for the view to answer one of its requests. */
const REQUEST_TIMEOUT_MS = 15_000;

const watchdog = setTimeout(() => {
    console.error('host.mjs: timed out');
    process.exit(1);
}, 240_000);
watchdog.unref();

// The page's libraries, as a web host ships them: one browser bundle, `window.mcpHost`.
const bundle = await build({
    stdin: {
        contents: `export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
                   export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';`,
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
        loader: 'js'
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'mcpHost',
    logLevel: 'error'
});
// `<\/` keeps the scripts' strings from ending their script element.
const library = bundle.outputFiles[0].text.replaceAll('</', '<\\/');
const actions = readFileSync(new URL('page.js', import.meta.url), 'utf8').replaceAll('</', '<\\/');

// The host page is served at the server's own origin (same-origin `fetch` to the endpoint, which
// the server admits as a localhost origin); the view itself runs in an opaque-origin sandbox,
// either the host's own iframe ("layout": "frame") or inside the sandbox proxy ("proxy"), which
// is served from another origin (`localhost` instead of `127.0.0.1`).
const hostUrl = new URL('/views-host.html', endpoint).href;
const proxyUrl = new URL('/sandbox-proxy.html', endpoint);
proxyUrl.hostname = 'localhost';
const proxyPage = readFileSync(new URL('sandbox-proxy.html', import.meta.url), 'utf8');
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP Apps host</title>
<style>body { margin: 8px; font: 12px monospace; } iframe { width: 480px; height: 120px; border: 1px solid #999; }</style>
</head><body><iframe id="view"></iframe><script>${library}</script><script>${actions}</script></body></html>`;

const profile = mkdtempSync(join(tmpdir(), 'views-host-'));
let context;
try {
    context = await chromium.launchPersistentContext(profile, {
        executablePath: browserPath,
        headless: true,
        args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-dev-shm-usage'
        ],
        viewport: { width: 520, height: 480 }
    });
    const reports = [];
    for (const scenario of scenarios) reports.push(await run(context, scenario));
    console.log(JSON.stringify(reports));
} finally {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
}
process.exit(0);

/** Opens the view in the file `path` as a page of its own, not framed by a host: its report says
 * what it shows once every message it posted to itself (its own parent) has arrived. */
async function runUnframed(page, path, consoleLines) {
    const viewUrl = new URL('/unframed-view.html', endpoint).href;
    await page.route(viewUrl, route => route.fulfill({ contentType: 'text/html', body: readFileSync(path, 'utf8') }));
    await page.goto(viewUrl);
    // Messages to a window arrive in order: after two rounds of a message of our own, the view's
    // messages and any answer it made to them have arrived.
    for (let round = 0; round < 2; round++) {
        await page.evaluate(() => new Promise(resolve => {
            addEventListener('message', function probe(event) {
                if (event.data !== 'probe') return;
                removeEventListener('message', probe);
                requestAnimationFrame(resolve);
            });
            postMessage('probe', '*');
        }));
    }
    const report = { shown: await page.locator('body').innerText(), console: consoleLines, failures: [] };
    await page.close();
    return report;
}

/** Runs one scenario in a page of its own, and gives its report. */
async function run(context, scenario) {
    const page = await context.newPage();
    const layout = scenario.layout ?? 'frame';
    const era = scenario.era;
    const consoleLines = [];
    page.on('console', message => {
        if (message.type() !== 'debug') consoleLines.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', error => consoleLines.push(`pageerror: ${error.message}`));
    if (scenario.unframed) return runUnframed(page, scenario.unframed, consoleLines);
    await page.route(hostUrl, route => route.fulfill({ contentType: 'text/html', body: hostPage }));
    await page.route(proxyUrl.href, route => route.fulfill({ contentType: 'text/html', body: proxyPage }));
    await page.goto(hostUrl);
    const act = (name, argument) => page.evaluate(([name, argument]) => window.hostActions[name](argument), [name, argument]);

    const report = await act('openView', { era, scenario, layout, proxy: proxyUrl.href, timeout: REQUEST_TIMEOUT_MS });
    const view = layout === 'proxy' ? page.frameLocator('#view').frameLocator('iframe') : page.frameLocator('#view');
    const failures = [];
    const contentBottom = () =>
        view.locator('body').evaluate(body => Math.max(0, ...[...body.children].map(child => child.getBoundingClientRect().bottom)));
    // Until the view has laid out and told the host: its last reported height covers its content,
    // and no new size came during three of its animation frames (where it measures).
    const settle = async () => {
        const frames = () =>
            view.locator('body').evaluate(() => new Promise(resolve => {
                let left = 3;
                const tick = () => (--left ? requestAnimationFrame(tick) : resolve());
                requestAnimationFrame(tick);
            }));
        const sizes = () => page.evaluate(() => window.host.sizes);
        const deadline = Date.now() + REQUEST_TIMEOUT_MS;
        for (;;) {
            const before = (await sizes()).length;
            await frames();
            const after = await sizes();
            const bottom = await contentBottom();
            if (after.length === before && after.length > 0 && after.at(-1).height >= bottom) return;
            if (Date.now() > deadline) {
                failures.push(`the view's size did not settle: bottom ${bottom}, sizes ${JSON.stringify(after)}`);
                return;
            }
        }
    };
    await settle();
    for (const action of scenario.actions ?? []) {
        if (action === 'forge') {
            await act('forge', layout);
            await settle();
            report.afterForgery = await view.locator('body').innerText();
        } else if (action === 'requests') {
            report.requests = await act('hostRequests', REQUEST_TIMEOUT_MS);
        } else if (action === 'ping-during-call') {
            await act('pingDuringCall', REQUEST_TIMEOUT_MS);
        } else if (action.startsWith('click:')) {
            await view.locator(`#${action.slice('click:'.length)}`).click({ timeout: 5000 });
            // Until the view shows an outcome and the host has answered every call it forwarded.
            await view
                .locator('#outcome:not(:empty)')
                .waitFor({ timeout: 2 * REQUEST_TIMEOUT_MS + 2000 })
                .catch(error => failures.push(`${action}: no #outcome: ${error.message}`));
            await page.waitForFunction(() => window.host.pendingCalls === 0, null, { timeout: 2 * REQUEST_TIMEOUT_MS });
            await settle();
        } else if (action === 'result') {
            report.result = await act('resendResult', { duringCall: false, timeout: REQUEST_TIMEOUT_MS });
        } else if (action === 'result-during-call') {
            await act('resendResult', { duringCall: true, timeout: REQUEST_TIMEOUT_MS });
        } else if (action === 'tool-cancelled') {
            report.toolCancelled = await act('toolCancelled', REQUEST_TIMEOUT_MS);
        } else if (action === 'teardown') {
            report.teardown = await act('teardown', REQUEST_TIMEOUT_MS);
        } else {
            throw new Error(`unknown action ${action}`);
        }
    }
    Object.assign(report, await page.evaluate(() => window.host.summary()));
    report.shown = await view.locator('body').innerText();
    report.disabled = await view.locator('button:disabled').evaluateAll(buttons => buttons.map(button => button.id));
    report.contentBottom = await contentBottom();
    report.failures = failures;
    if (scenario.screenshot) await page.screenshot({ path: scenario.screenshot });
    report.console = consoleLines;
    await page.close();
    return report;
}
