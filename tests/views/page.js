// The host page's own script (tests/views/host.mjs inlines it after the library bundle): what the
// host does in the page, as `window.hostActions`, which host.mjs calls one by one.
'use strict';

/** Connects to the server, renders the view in the bridge, gives it the tool's input and result. */
async function openView({ era, scenario, layout, proxy, timeout }) {
    const { AppBridge, PostMessageTransport, Client, StreamableHTTPClientTransport } = window.mcpHost;
    const mimeType = 'text/html;profile=mcp-app';
    const client = new Client(
        { name: 'views-host', version: '0.0.0' },
        {
            versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } },
            capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [mimeType] } } }
        }
    );
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
    const { contents } = await client.readResource({ uri: scenario.uri });

    const frame = document.getElementById('view');
    const host = {
        client,
        fromView: [],
        toView: [],
        sizes: [],
        calls: [],
        pingDuringCall: undefined,
        summary() {
            return {
                era: client.getNegotiatedProtocolVersion?.() ?? null,
                appCapabilities: host.bridge.getAppCapabilities() ?? null,
                appInfo: host.bridge.getAppVersion() ?? null,
                fromView: host.fromView,
                toView: host.toView,
                sizes: host.sizes,
                frameHeight: frame.getBoundingClientRect().height,
                calls: host.calls,
                pingDuringCall: host.pingDuringCall ?? null
            };
        }
    };
    window.host = host;
    window.addEventListener('message', event => {
        if (event.source === frame.contentWindow) host.fromView.push(event.data);
    });
    // No client given to the bridge: the host forwards the view's calls itself (below), as a host
    // that decides what a view may do does.
    const bridge = new AppBridge(
        null,
        { name: 'views-host', version: '0.0.0' },
        { serverTools: {} },
        { hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'] } }
    );
    host.bridge = bridge;
    // A host with flexible height: the frame takes the height the view asks for.
    bridge.onsizechange = size => {
        host.sizes.push(size);
        if (size.height) frame.style.height = `${size.height}px`;
    };
    const initialized = new Promise(resolve => {
        bridge.oninitialized = resolve;
    });
    const transport = new PostMessageTransport(frame.contentWindow, frame.contentWindow);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        host.toView.push(message);
        return send(message, options);
    };
    host.transport = transport;
    // The view's calls go to the server; a scenario may make the host ping the view meanwhile.
    host.pendingCalls = 0;
    bridge.oncalltool = async params => {
        host.pendingCalls += 1;
        try {
            if (host.beforeCall) {
                host.pingDuringCall = await host.beforeCall();
            }
            const result = await client.callTool(params);
            host.calls.push({ params, result });
            return result;
        } finally {
            host.pendingCalls -= 1;
        }
    };
    await bridge.connect(transport);
    if (layout === 'proxy') {
        // The proxy says when it is ready; then it gets the view's HTML to render.
        bridge.onsandboxready = () => bridge.sendSandboxResourceReady({ html: contents[0].text, sandbox: 'allow-scripts' });
        frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
        frame.src = proxy;
    } else {
        frame.setAttribute('sandbox', 'allow-scripts');
        frame.srcdoc = contents[0].text;
    }
    await Promise.race([
        initialized,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the view never initialized')), timeout))
    ]);
    await bridge.sendToolInput({ arguments: scenario.arguments });
    const result = await client.callTool({ name: scenario.tool, arguments: scenario.arguments });
    host.toolResult = result;
    await bridge.sendToolResult(result);
    return { resource: { uri: contents[0].uri, mimeType: contents[0].mimeType }, toolResult: result };
}

/** The outcome of one host request: `{result}` or `{error: {code, message}}`. */
function outcome(promise) {
    return promise.then(
        result => ({ result }),
        error => ({ error: { code: error.code ?? null, message: String(error.message) } })
    );
}

/** Accepts any result: the test judges it. */
const anything = { '~standard': { version: 1, vendor: 'views-host', validate: value => ({ value }) } };

/** `ping`, and a request no view knows. */
async function hostRequests(timeout) {
    const bridge = window.host.bridge;
    return {
        ping: await outcome(bridge.request({ method: 'ping' }, anything, { timeout })),
        unknown: await outcome(bridge.request({ method: 'ui/no-such-request', params: {} }, anything, { timeout }))
    };
}

/** The view's next message that `matches`, within `timeout` ms. */
function nextFromView(matches, timeout) {
    const frame = document.getElementById('view');
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            removeEventListener('message', listener);
            reject(new Error(`no such message from the view within ${timeout} ms`));
        }, timeout);
        const listener = event => {
            if (event.source !== frame.contentWindow || !matches(event.data)) return;
            clearTimeout(timer);
            removeEventListener('message', listener);
            resolve(event.data);
        };
        addEventListener('message', listener);
    });
}

/** The next animation frame of the page. */
const animationFrame = () => new Promise(resolve => requestAnimationFrame(resolve));

/** Makes the host ping the view, with the id of the view's next `tools/call`, while that call is
 * pending (sent through the transport: the bridge would number it itself). */
async function pingDuringCall(timeout) {
    const { transport, fromView } = window.host;
    window.host.beforeCall = async () => {
        const call = fromView.findLast(message => message.method === 'tools/call');
        const isReply = message => message?.id === call.id && message.method === undefined;
        const reply = nextFromView(isReply, timeout);
        await transport.send({ jsonrpc: '2.0', id: call.id, method: 'ping' });
        const { result, error } = await reply;
        const ping = window.host.toView.findLast(message => message.method === 'ping');
        return { callId: call.id, pingId: ping?.id ?? null, ...(error ? { error } : { result }) };
    };
}

/** Sends the view a notification, then pings it: once the ping is answered, the view has taken
 * the notification (messages from one window arrive in order). */
async function notifyView(notify, timeout) {
    const { bridge } = window.host;
    await notify(bridge);
    return outcome(bridge.request({ method: 'ping' }, anything, { timeout }));
}

/** The tool's result again, as a host may send it (`ui/notifications/tool-result`); with
 * `duringCall`, while the view's next `tools/call` is pending. */
async function resendResult({ duringCall, timeout }) {
    const resend = () => notifyView(bridge => bridge.sendToolResult(window.host.toolResult), timeout);
    if (!duringCall) return resend();
    window.host.beforeCall = async () => {
        await resend();
        return null;
    };
    return null;
}

/** `ui/notifications/tool-cancelled`, as a host sends it when the tool's call was cancelled. */
async function toolCancelled(timeout) {
    return notifyView(bridge => bridge.sendToolCancelled({ reason: 'The user stopped it' }), timeout);
}

/** Another window of the page than the host (a sibling frame) posts to the view (inside the
 * proxy's frame in the proxy layout) a forged tool result now, and a forged reply to the view's
 * `tools/call` while it is pending. */
async function forge(layout) {
    const forged = {
        structuredContent: {
            albums: [{ title: 'Forged album', artist: 'Nobody', year: 1 }],
            order: { item: 'Forged item', quantity: 9, unitPrice: 1, total: 9 },
            message: 'Forged outcome'
        },
        content: [{ type: 'text', text: 'Forged' }]
    };
    // The intruder posts to the view whatever the page hands it.
    const intruder = document.createElement('iframe');
    intruder.setAttribute('sandbox', 'allow-scripts');
    // It says when it has posted each message (`{forwarded: n}`).
    intruder.srcdoc = `<script>
        const view = ${layout === 'proxy' ? 'parent.frames[0].frames[0]' : 'parent.frames[0]'};
        let forwarded = 0;
        addEventListener("message", event => {
            view.postMessage(event.data, "*");
            parent.postMessage({ forwarded: ++forwarded }, "*");
        });
    <\/script>`;
    const loaded = new Promise(resolve => intruder.addEventListener('load', resolve));
    document.body.append(intruder);
    await loaded;
    let sent = 0;
    // Until the intruder has posted it, and the view has had a frame to take it.
    const post = async message => {
        const number = ++sent;
        const forwarded = new Promise(resolve => {
            const listener = event => {
                if (event.source !== intruder.contentWindow || event.data?.forwarded !== number) return;
                removeEventListener('message', listener);
                resolve();
            };
            addEventListener('message', listener);
        });
        intruder.contentWindow.postMessage({ jsonrpc: '2.0', ...message }, '*');
        await forwarded;
        await animationFrame();
    };
    await post({ method: 'ui/notifications/tool-result', params: forged });
    window.host.beforeCall = async () => {
        const call = window.host.fromView.findLast(message => message.method === 'tools/call');
        await post({ id: call.id, result: forged });
        return null;
    };
}

/** `ui/resource-teardown`, as a host sends it before it removes the view. */
async function teardown(timeout) {
    return outcome(window.host.bridge.teardownResource({}, { timeout }));
}

window.hostActions = { openView, hostRequests, pingDuringCall, resendResult, toolCancelled, forge, teardown };
