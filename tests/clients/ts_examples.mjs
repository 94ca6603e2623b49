// Drives the example servers (examples/weather, examples/notes, examples/axum-app) with the official
// TypeScript client (@modelcontextprotocol/client v2) as a host would, and checks what it sees.
//
//   node tests/clients/ts_examples.mjs <legacy|auto|modern> weather <server command> [args...]
//   node tests/clients/ts_examples.mjs <legacy|auto|modern> notes <server command> [args...]
//   node tests/clients/ts_examples.mjs <legacy|auto|modern> notes-reopened <server command> [args...]
//   node tests/clients/ts_examples.mjs <legacy|auto|modern> notes --url URL              (notes --http)
//   node tests/clients/ts_examples.mjs <legacy|auto|modern> todo <server command> [args...]
//   node tests/clients/ts_examples.mjs <legacy|auto|modern> axum-app <base URL> <write token> <read token>
//
// The same checks as py_examples.py: `notes` works in an empty database and leaves one note
// ("Groceries"), which `notes-reopened`, on the same file, finds again. Both read a note as the
// resource `notes://{id}`, subscribe to it (`resources/subscribe` on a legacy connection,
// `subscriptions/listen` on a 2026-07-28 one) and hear `notifications/resources/updated` when it
// is edited or deleted, and nothing of another note's changes; they list and get the prompt
// `summarise_note` and complete its `id` argument from the notes' titles. One line per check; exit
// 1 if any failed.

import { Client, InsufficientScopeError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks, text, same } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    auto: { negotiation: { mode: 'auto' }, version: '2026-07-28' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};

const [modeName, example, ...target] = process.argv.slice(2);
const mode = MODES[modeName];
const stdioExamples = { weather, notes, 'notes-reopened': notesReopened, todo };
if (!mode || !(example in stdioExamples || (example === 'axum-app' && target.length === 3)) || target.length === 0) {
    console.error(`usage: ts_examples.mjs <${Object.keys(MODES).join('|')}> <${[...Object.keys(stdioExamples), 'axum-app'].join('|')}> <server command or URL and tokens>`);
    process.exit(2);
}

const label = `ts/${example}/${modeName}`;

const checks = new Checks(label);
const check = checks.check;

/**
 * Checks what a host shows beside the server (SEP-973, 2025-11-25): its description, web site and
 * icons, as the SDK's schema parsed them; `icons` are the expected URL icons, then whether a
 * `data:` SVG icon for dark backgrounds follows.
 */
function checkAbout(info, { description, websiteUrl, icons, darkSvg }) {
    const [extra, ...rest] = (info?.icons ?? []).slice(icons.length);
    check(
        'server description, website and icons',
        info?.description === description &&
            info?.websiteUrl === websiteUrl &&
            same(info?.icons?.slice(0, icons.length), icons) &&
            rest.length === 0 &&
            (darkSvg
                ? extra?.src?.startsWith('data:image/svg+xml;base64,') && extra?.theme === 'dark' && same(extra?.sizes, ['any'])
                : extra === undefined),
        info
    );
}

/** A client connected over `transport`; checks the negotiated version and the server's name. */
async function connect(transport, serverName) {
    const client = new Client({ name: 'mcp-toolbelt-ts-examples', version: '0.0.0' }, { versionNegotiation: mode.negotiation });
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    await client.connect(transport, { timeout: 10_000 });
    check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());
    check('server info', client.getServerVersion()?.name === serverName, client.getServerVersion());
    const { tools } = await client.listTools();
    return { client, complaints, tools: Object.fromEntries(tools.map(tool => [tool.name, tool])) };
}

async function weather(command, args) {
    const { client, complaints, tools } = await connect(stdio(command, args), 'weather');
    check("tools/list is the README's one tool", same(Object.keys(tools), ['get_weather']), Object.keys(tools));
    const tool = tools.get_weather;
    check('get_weather has its title', tool?.title === 'Get Weather', tool);
    check('get_weather is read-only, closed-world', same(tool?.annotations, { readOnlyHint: true, openWorldHint: false }), tool?.annotations);
    check('location is a documented string', same(tool?.inputSchema?.properties?.location, { type: 'string', description: 'City name' }), tool?.inputSchema);
    check('outputSchema names temperatureC and summary', same(Object.keys(tool?.outputSchema?.properties ?? {}).sort(), ['summary', 'temperatureC']), tool?.outputSchema);
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Paris' } });
    const expected = { temperatureC: 22, summary: 'Paris: partly cloudy' };
    check('get_weather structuredContent', !result.isError && same(result.structuredContent, expected), result);
    check('get_weather text is its JSON', same(JSON.parse(text(result) || 'null'), expected), result);
    await close(client, complaints);
}

/** The notes server's description and its one icon, a `data:` SVG of any size. */
function checkNotesAbout(client) {
    const info = client.getServerVersion();
    const icons = info?.icons ?? [];
    check(
        'server description and its data: SVG icon',
        info?.description === 'Personal notes on SQLite: full-text search, each note a resource' &&
            icons.length === 1 &&
            icons[0].src?.startsWith('data:image/svg+xml;base64,') &&
            same(icons[0].sizes, ['any']),
        info
    );
}

/**
 * Subscribes to `uri` as the negotiated era does it; gives `next(milliseconds)`, the URI of the
 * next `notifications/resources/updated` heard (`undefined` when none came in time), `end()`, and
 * whether the connection is `legacy`.
 */
async function subscribe(client, uri) {
    const heard = [];
    let wake = () => {};
    client.setNotificationHandler('notifications/resources/updated', notification => {
        heard.push(notification.params.uri);
        wake();
    });
    const next = async milliseconds => {
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
    };
    if (client.getNegotiatedProtocolVersion() === '2025-11-25') {
        await client.subscribeResource({ uri });
        return { legacy: true, next, end: () => client.unsubscribeResource({ uri }) };
    }
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    check("listen honours the note's URI", same(subscription.honoredFilter?.resourceSubscriptions, [uri]), subscription.honoredFilter);
    return { legacy: false, next, end: () => subscription.close() };
}

/**
 * A note is the resource `notes://{id}`: listed as a template, read as markdown; a client
 * subscribed to one note hears when it is edited or deleted, and nothing of another note's
 * changes. Adds two notes and deletes them: the database is left as it was.
 */
async function watchNotes(client) {
    const { resourceTemplates } = await client.listResourceTemplates();
    check(
        'resources/templates/list: notes://{id}, markdown',
        same(resourceTemplates.map(template => [template.uriTemplate, template.mimeType]), [['notes://{id}', 'text/markdown']]),
        resourceTemplates
    );
    const call = (name, args) => client.callTool({ name, arguments: args });
    const watched = (await call('add_note', { title: 'Boiler', body: 'Service due in March' })).structuredContent ?? {};
    const other = (await call('add_note', { title: 'Scratch', body: 'Nothing yet' })).structuredContent ?? {};
    const uri = `notes://${watched.id}`;
    let read = await client.readResource({ uri });
    check(
        'resources/read notes://{id}: title, body and creation date in markdown',
        same(read.contents.map(content => [content.mimeType, content.text]), [['text/markdown', `# Boiler\n\nService due in March\n\n_Created ${watched.createdAt}_\n`]]),
        read
    );
    const subscription = await subscribe(client, uri);
    // The other note first: were its change told to this client, it would be heard first.
    let result = await call('edit_note', { id: other.id, body: 'Still nothing' });
    check('edit_note another note', !result.isError, result);
    // Over HTTP a legacy session's GET stream may open after the first edit: edit until heard.
    let event;
    for (let attempt = 0; attempt < (subscription.legacy ? 20 : 1) && event === undefined; attempt++) {
        result = await call('edit_note', { id: watched.id, body: 'Service booked for 3 March' });
        event = await subscription.next(subscription.legacy ? 500 : 10_000);
    }
    check(
        'edit_note returns the note as it now is',
        !result.isError && result.structuredContent?.body === 'Service booked for 3 March' && result.structuredContent?.title === 'Boiler',
        result
    );
    check('edit_note: resources/updated for the subscribed note only', event === uri, event);
    while (subscription.legacy && (await subscription.next(200)) !== undefined) {
        // the updates of the edits before the one heard
    }
    read = await client.readResource({ uri });
    check('the note read again is the edited one', read.contents[0]?.text?.includes('Service booked for 3 March'), read);
    await call('delete_note', { id: other.id });
    await call('delete_note', { id: watched.id });
    event = await subscription.next(10_000);
    check('delete_note: resources/updated for the subscribed note', event === uri, event);
    await subscription.end();
    try {
        read = await client.readResource({ uri });
        check('a deleted note cannot be read', false, read);
    } catch (error) {
        check('a deleted note cannot be read: -32602 naming it', error?.code === -32602 && String(error?.message).includes(uri), String(error));
    }
}

/**
 * The prompt `summarise_note`: listed with its `note` argument, the argument completed from the
 * notes' ids and titles (by a completer over the database, each value beginning with what was
 * typed), the prompt got with the note's text. Expects the one note "Groceries".
 */
async function summariseChecks(client) {
    const { prompts } = await client.listPrompts();
    check(
        'prompts/list: summarise_note, its note argument required',
        same(
            prompts.map(prompt => [prompt.name, prompt.title, (prompt.arguments ?? []).map(argument => [argument.name, argument.required])]),
            [['summarise_note', 'Summarise a note', [['note', true]]]]
        ) && Boolean(prompts[0]?.description),
        prompts
    );
    const page = (await client.callTool({ name: 'list_notes', arguments: {} })).structuredContent ?? {};
    const groceries = String(page.notes?.[0]?.id);
    const complete = value => client.complete({ ref: { type: 'ref/prompt', name: 'summarise_note' }, argument: { name: 'note', value } });
    let completed = await complete('GROC');
    check("note completes from a title's first letters (any case)", same(completed.completion?.values, ['Groceries']), completed);
    completed = await complete(groceries);
    check("note completes from an id's digits", same(completed.completion?.values, [groceries]), completed);
    completed = await complete('no such title');
    check('nothing matches: no values', same(completed.completion?.values, []), completed);
    for (const value of [groceries, 'groceries']) {
        const result = await client.getPrompt({ name: 'summarise_note', arguments: { note: value } });
        check(
            `prompts/get summarise_note ${value}: one user message with the note`,
            result.messages.length === 1 &&
                result.messages[0].role === 'user' &&
                String(result.messages[0].content?.text).includes('# Groceries\n\nBuy milk, eggs and coffee beans') &&
                result.description === 'A summary of the note "Groceries"',
            result
        );
    }
    for (const value of ['eggs', '999999']) {
        try {
            await client.getPrompt({ name: 'summarise_note', arguments: { note: value } });
            check(`summarise_note refuses note ${value}`, false);
        } catch (error) {
            check(`summarise_note refuses note ${value}, saying why`, String(error?.message).includes(`no note has the id or title "${value}"`), String(error));
            check(`summarise_note refuses note ${value} as invalid params`, error?.code === -32602, String(error));
        }
    }
}

async function notes(command, args) {
    const { client, complaints, tools } = await connect(stdioOrUrl(command, args), 'notes');
    checkNotesAbout(client);
    check(
        'tools/list has the five notes tools',
        same(Object.keys(tools).sort(), ['add_note', 'delete_note', 'edit_note', 'list_notes', 'search_notes']),
        Object.keys(tools)
    );
    check('delete_note is destructive', same(tools.delete_note?.annotations, { destructiveHint: true }), tools.delete_note);
    check('edit_note is idempotent', same(tools.edit_note?.annotations, { idempotentHint: true }), tools.edit_note);
    for (const name of ['search_notes', 'list_notes']) {
        check(`${name} is read-only`, same(tools[name]?.annotations, { readOnlyHint: true }), tools[name]);
    }
    const schema = tools.add_note?.inputSchema ?? {};
    check(
        'add_note takes title and body, the database is no argument',
        same(Object.keys(schema.properties ?? {}).sort(), ['body', 'title']) && same([...(schema.required ?? [])].sort(), ['body', 'title']),
        schema
    );
    const call = (name, args) => client.callTool({ name, arguments: args });

    let result = await call('list_notes', {});
    check('a new database is empty', !result.isError && same(result.structuredContent, { notes: [], total: 0 }), result);
    const added = [];
    for (const [title, body] of [
        ['Groceries', 'Buy milk, eggs and coffee beans'],
        ['Team meeting', 'Agenda: the release plan, then coffee with the new hires'],
        ['Deploy checklist', 'Run the migrations before deploying the web servers']
    ]) {
        result = await call('add_note', { title, body });
        const note = result.structuredContent ?? {};
        check(`add_note ${title}`, !result.isError && note.title === title && note.body === body && Number.isInteger(note.id), result);
        added.push(note);
    }
    const ids = added.map(note => note.id);
    result = await call('search_notes', { query: 'migrations' });
    let hits = result.structuredContent?.notes ?? [];
    check('search finds the note by a word of its body', same(hits.map(hit => hit.id), [ids[2]]) && hits[0].snippet.includes('[migrations]'), result);
    result = await call('search_notes', { query: 'coffee' });
    hits = result.structuredContent?.notes ?? [];
    check('search finds every note with the word', same(hits.map(hit => hit.id).sort(), ids.slice(0, 2).sort()), result);
    result = await call('search_notes', { query: '"unclosed' });
    check('a malformed query is isError saying why', result.isError === true && text(result).startsWith('Cannot search for'), result);
    result = await call('list_notes', {});
    check(
        'list_notes: newest first, with the total',
        same(result.structuredContent?.notes?.map(note => note.id), [...ids].reverse()) && result.structuredContent?.total === 3,
        result
    );
    for (const note of added.slice(1)) {
        result = await call('delete_note', { id: note.id });
        check(`delete_note ${note.title} returns it`, !result.isError && same(result.structuredContent, note), result);
    }
    result = await call('delete_note', { id: ids[1] });
    check('deleting it again is isError', result.isError === true && text(result) === `No note with id ${ids[1]}`, result);
    result = await call('list_notes', {});
    check('list_notes after the deletes', same(result.structuredContent, { notes: [added[0]], total: 1 }), result);
    result = await call('edit_note', { id: ids[1], title: 'Gone' });
    check('editing a deleted note is isError', result.isError === true && text(result) === `No note with id ${ids[1]}`, result);
    await watchNotes(client);
    await summariseChecks(client);
    await close(client, complaints);
}

async function notesReopened(command, args) {
    const { client, complaints } = await connect(stdioOrUrl(command, args), 'notes');
    const result = await client.callTool({ name: 'list_notes', arguments: {} });
    check(
        'the note left by the last run is still there',
        same(result.structuredContent?.notes?.map(note => note.title), ['Groceries']) && result.structuredContent?.total === 1,
        result
    );
    checkNotesAbout(client);
    await watchNotes(client);
    await summariseChecks(client);
    await close(client, complaints);
}

async function axumApp(base, writeToken, readToken) {
    const url = `${base}/mcp`;
    let response = await fetch(`${base}/health`);
    check('GET /health', response.status === 200 && (await response.text()) === 'ok', response.status);
    response = await fetch(`${base}/api/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Travel mug', quantity: 3 })
    });
    check('POST /api/items', response.status === 200, response.status);
    response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    });
    const challenge = response.headers.get('www-authenticate') ?? '';
    check('no token is 401 with a challenge', response.status === 401 && challenge.includes('resource_metadata='), [response.status, challenge]);

    // The token travels in every request the transport makes.
    const withToken = token => (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${token}`);
        return fetch(input, { ...init, headers });
    };
    const http = token => new StreamableHTTPClientTransport(new URL(url), { fetch: withToken(token) });

    let { client, complaints, tools } = await connect(http(writeToken), 'inventory');
    checkAbout(client.getServerVersion(), {
        description: "The shop's inventory, behind bearer auth",
        websiteUrl: 'https://example.com/inventory',
        icons: [{ src: 'https://example.com/icons/inventory.png', mimeType: 'image/png', sizes: ['48x48', '96x96'] }]
    });
    check('tools/list has the inventory tools', same(Object.keys(tools).sort(), ['add_item', 'list_items', 'remove_item']), Object.keys(tools));
    check('remove_item is destructive and idempotent', same(tools.remove_item?.annotations, { destructiveHint: true, idempotentHint: true }), tools.remove_item);
    let result = await client.callTool({ name: 'list_items', arguments: {} });
    check('list_items sees what the app route added', same(result.structuredContent, { items: [{ name: 'Travel mug', quantity: 3 }] }), result);
    result = await client.callTool({ name: 'add_item', arguments: { name: 'Espresso cup', quantity: 2 } });
    check('add_item with the write scope', !result.isError && same(result.structuredContent, { name: 'Espresso cup', quantity: 2 }), result);
    await close(client, complaints);

    ({ client, complaints, tools } = await connect(http(readToken), 'inventory'));
    check('tools/list shows the read scope list_items alone', same(Object.keys(tools), ['list_items']), Object.keys(tools));
    result = await client.callTool({ name: 'list_items', arguments: {} });
    check('list_items with the read scope', !result.isError && result.structuredContent?.items?.length === 2, result);
    // No OAuth provider to step up with: the SDK throws the 403's insufficient_scope challenge
    // as an InsufficientScopeError (and tells onerror of it too: expected, so not a complaint).
    const before = complaints.length;
    let refused;
    try {
        result = await client.callTool({ name: 'add_item', arguments: { name: 'Teapot', quantity: 1 } });
    } catch (error) {
        refused = error;
    }
    check(
        'add_item without the write scope is refused 403 insufficient_scope, naming the scope',
        refused instanceof InsufficientScopeError && refused.requiredScope === 'inventory:write',
        refused === undefined ? result : String(refused)
    );
    const others = complaints.splice(before).filter(complaint => !complaint.startsWith('Insufficient scope'));
    complaints.push(...others);
    await close(client, complaints);
    response = await fetch(`${base}/api/items`);
    check('the app route sees no refused call', same(await response.json(), [{ name: 'Travel mug', quantity: 3 }, { name: 'Espresso cup', quantity: 2 }]));
}

/**
 * The to-do example, whose tools ask the user (elicitation): this client is the user, answering
 * from a script of answers; in legacy mode the server's questions are requests, in modern mode
 * `input_required` results the SDK fulfils and retries.
 */
async function todo(command, args) {
    const client = new Client(
        { name: 'mcp-toolbelt-ts-examples', version: '0.0.0' },
        { versionNegotiation: mode.negotiation, capabilities: { elicitation: { form: {} } } }
    );
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    const asked = [];
    let answers = [];
    client.setRequestHandler('elicitation/create', async request => {
        asked.push(request.params.message);
        return answers.shift() ?? { action: 'cancel' };
    });
    await client.connect(stdio(command, args), { timeout: 10_000 });
    check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());
    checkAbout(client.getServerVersion(), {
        description: 'A to-do list that asks before it deletes',
        websiteUrl: 'https://example.com/todo',
        icons: [{ src: 'https://example.com/icons/todo.png', mimeType: 'image/png', sizes: ['48x48'] }],
        darkSvg: true
    });
    const call = async (name, args, scripted) => {
        asked.length = 0;
        answers = scripted;
        return client.callTool({ name, arguments: args });
    };
    let result = await call('add-task', { title: 'Water plants', priority: 'low' }, []);
    check('add-task with a priority asks nothing', text(result) === 'Added "Water plants" (Low)' && asked.length === 0, { result, asked });
    result = await call('add-task', { title: 'File taxes' }, [{ action: 'accept', content: { priority: 'high' } }]);
    check('add-task without a priority asks for it', same(asked, ['How urgent is "File taxes"?']), asked);
    check('add-task uses the answer', text(result) === 'Added "File taxes" (High)', result);
    result = await call('add-task', { title: 'Nap' }, [{ action: 'decline' }]);
    check('a declined question adds nothing', result.isError === true && text(result) === 'No task added: the user gave no priority', result);
    result = await call('clear-tasks', {}, [{ action: 'decline' }]);
    check('clear-tasks asks first', same(asked, ['Delete all 2 tasks? This cannot be undone.']), asked);
    check('a declined clear deletes nothing', text(result) === 'Nothing deleted: the user did not confirm', result);
    result = await call('list-tasks', {}, []);
    check('the tasks are still there', text(result) === 'Water plants (Low)\nFile taxes (High)', result);
    result = await call('clear-tasks', {}, [{ action: 'accept', content: { confirm: true } }]);
    check('a confirmed clear deletes', text(result) === 'Deleted 2 tasks', result);
    result = await call('list-tasks', {}, []);
    check('nothing is left', text(result) === 'No tasks', result);
    await close(client, complaints);
}

function stdio(command, args) {
    // The SDK hands the child only a few "safe" variables by default; pass ours along.
    return new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
}

/** `--url URL`: Streamable HTTP at URL; else the server command, over stdio. */
function stdioOrUrl(command, args) {
    return command === '--url' ? new StreamableHTTPClientTransport(new URL(args[0])) : stdio(command, args);
}

async function close(client, complaints) {
    check('the SDK reported no errors', complaints.length === 0, complaints);
    await client.close();
}

const watchdog = setTimeout(() => {
    console.log(`FAIL ${label} timed out`);
    process.exit(1);
}, 60_000);
watchdog.unref();

try {
    if (example === 'axum-app') {
        await axumApp(...target);
    } else {
        await stdioExamples[example](target[0], target.slice(1));
    }
} catch (error) {
    checks.failed = true;
    console.log(`FAIL ${label} unexpected error: ${error?.stack ?? error}`);
}
console.log(checks.failed ? `${label}: FAILED` : `${label}: all checks passed`);
process.exit(checks.failed ? 1 : 0);
