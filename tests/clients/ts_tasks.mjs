// Drives the task tools of the reports example (examples/reports) with the official Tasks
// requester, @modelcontextprotocol/ext-tasks, on top of the official TypeScript client
// (@modelcontextprotocol/client v2), over stdio or Streamable HTTP.
//
// modern (2026-07-28, the extension negotiated on every request):
//   - a call answered inline when it finishes within the server's task budget;
//   - a call answered with a task (`resultType: "task"`), polled with `tasks/get` until it
//     completes, its progress seen in the task's `statusMessage`;
//   - a task that asks the user a question (`inputRequests`), answered with `tasks/update`;
//   - a task cancelled with `tasks/cancel`, seen `cancelled` and staying so;
//   - an unknown task id refused with -32602, and a required-task tool called without the
//     extension refused with -32021 naming it.
// legacy (2025-11-25): the same tools never become tasks: answered inline with progress
// notifications, the required-task tool not listed, and refused with -32021 when called.
//
//   node tests/clients/ts_tasks.mjs <legacy|modern> <server command> [args...]
//   node tests/clients/ts_tasks.mjs <legacy|modern> --url http://127.0.0.1:PORT/mcp
//
// One line per check; exit 1 if any failed.
//
// The requester speaks the 2026-07-28 task wire itself (the SDK client's codecs do not know
// `resultType: "task"`): it asks its host for a `rawDispatch`, a way to send a request as it
// framed it and get the JSON-RPC answer back. Here that is the SDK's own transport, wrapped so
// that the answers to those requests come back to the requester instead of the SDK client: the
// same connection (one stdio process, or the same HTTP endpoint with the headers the SDK's
// transport derives from the body: `Mcp-Method`, `Mcp-Name` = the task id).

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
    createApplicationInputHandler,
    createTaskSessionFromClient,
    resultFromTaskOutcome,
    toolDeclarationFromMcpTool
} from '@modelcontextprotocol/ext-tasks/client';
import { Checks, same, text } from './checks.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';
const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};
const CLIENT_INFO = { name: 'mcp-toolbelt-ts-tasks', version: '0.0.0' };
const CLIENT_CAPABILITIES = { elicitation: { form: {} } };

// The `_meta` of a 2026-07-28 request from this client, with the tasks extension.
function framing(version) {
    return {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': { ...CLIENT_CAPABILITIES, extensions: { [TASKS]: {} } }
    };
}

const [modeName, command, ...args] = process.argv.slice(2);
const mode = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!mode || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_tasks.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}

const label = `ts-tasks/${url ? 'http' : 'stdio'}/${modeName}`;
const checks = new Checks(label);
const check = checks.check;
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// An outcome as a check's detail: a failure's error says why (and what it was caused by).
function described(outcome) {
    if (outcome?.status !== 'failed') return outcome;
    const { error } = outcome;
    return { ...outcome, error: { message: error?.message, code: error?.code, data: error?.data, cause: error?.cause?.message ?? error?.cause } };
}

// Headers the SDK's transport derives itself and refuses from a caller.
const RESERVED_HEADERS = new Set(['authorization', 'dpop', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id']);

// `transport`, wrapped so that requests sent through `dispatch` (the requester's `rawDispatch`)
// have their answers handed back to it, while everything else reaches the SDK client as usual.
// Messages are handed on one per event-loop turn, as if each had come in its own read: the SDK
// (2.4.0) defers notification handlers to a microtask but handles a response at once, so a
// progress notification read together with its response would reach a retired token
// (modelcontextprotocol/typescript-sdk#2580; see ts_client.mjs). Order and content are unchanged.
function rawChannel(inner) {
    const pending = new Map();
    let next = 0;
    let delivered = Promise.resolve();
    const transport = new Proxy(inner, {
        get(target, property) {
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
        },
        set(target, property, value) {
            if (property !== 'onmessage' || typeof value !== 'function') {
                return Reflect.set(target, property, value, target);
            }
            target.onmessage = (message, extra) => {
                const answer = message && !('method' in message) && pending.get(message.id);
                if (!answer) {
                    delivered = delivered.then(() => {
                        value(message, extra);
                        return new Promise(resolve => setImmediate(resolve));
                    });
                    return;
                }
                pending.delete(message.id);
                answer(message.error ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result });
            };
            return true;
        }
    });
    async function dispatch(request, options = {}) {
        const id = `ext-tasks-${++next}`;
        const answered = new Promise((resolve, reject) => {
            pending.set(id, resolve);
            options.signal?.addEventListener('abort', () => {
                pending.delete(id);
                reject(options.signal.reason);
            }, { once: true });
        });
        const headers = Object.fromEntries(
            Object.entries(options.context?.headers ?? {}).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase()))
        );
        await inner.send({ jsonrpc: '2.0', id, ...request }, Object.keys(headers).length ? { headers } : undefined);
        return answered;
    }
    return { transport, dispatch, seen: pending };
}

// Polls `tasks/get` through `controller` until the task is terminal (or `ms` have passed).
async function terminal(controller, ms = 10_000) {
    const deadline = Date.now() + ms;
    let view = await controller.snapshot();
    while (!['completed', 'failed', 'cancelled'].includes(view.status) && Date.now() < deadline) {
        await sleep(50);
        view = await controller.snapshot();
    }
    return view;
}

async function connect() {
    const inner = url
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const channel = rawChannel(inner);
    const client = new Client(CLIENT_INFO, { versionNegotiation: mode.negotiation, capabilities: CLIENT_CAPABILITIES });
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    await client.connect(channel.transport, { timeout: 10_000 });
    return { client, channel, complaints };
}

async function main() {
    const { client, channel, complaints } = await connect();
    check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());
    const capabilities = client.getServerCapabilities() ?? {};
    if (modeName === 'modern') {
        check('server/discover declares the tasks extension', same(capabilities.extensions?.[TASKS], {}), capabilities);
    }

    // tools/list as sent: the SDK's schema of a 2026-07-28 tool has no `execution` (the
    // extension's `taskSupport`), so its listTools would drop it.
    const listed = await channel.dispatch({
        method: 'tools/list',
        params: modeName === 'modern' ? { _meta: framing(mode.version) } : {}
    });
    const tools = listed.kind === 'result' ? listed.result.tools : [];
    check('tools/list', tools.length > 0, listed);
    const byName = Object.fromEntries(tools.map(tool => [tool.name, tool]));
    check('build_report is listed', Boolean(byName.build_report), tools);
    if (modeName === 'modern') {
        check('import_rows is listed', Boolean(byName.import_rows), tools);
    } else {
        // A legacy client has no tasks: a required-task tool is not its to see.
        check('import_rows is not listed on a legacy connection', !byName.import_rows, tools);
    }
    if (modeName === 'modern') {
        check('build_report may run as a task', byName.build_report?.execution?.taskSupport === 'optional', byName.build_report);
        check('import_rows always runs as a task', byName.import_rows?.execution?.taskSupport === 'required', byName.import_rows);
    }

    // The plain SDK client, which does not declare the extension: never a task.
    try {
        const refused = await client.callTool({ name: 'import_rows', arguments: { rows: 20, row_ms: 1 } });
        check('a required-task tool without the extension is refused', false, refused);
    } catch (error) {
        check(
            'a required-task tool without the extension is -32021 naming it',
            error?.code === -32021 && same(error?.data?.requiredCapabilities?.extensions?.[TASKS], {}),
            { code: error?.code, message: error?.message, data: error?.data }
        );
    }

    const questions = [];
    let answer = { action: 'accept', content: { skip: true } };
    const session = createTaskSessionFromClient(client, {
        endpointId: `${label}:${url ?? command}`,
        tools: {
            currentTool: name => (byName[name] ? toolDeclarationFromMcpTool(byName[name]) : undefined)
        },
        onInputRequest: createApplicationInputHandler({
            elicitation: async request => {
                questions.push(request.params.message);
                return answer;
            },
            sampling: async () => {
                throw new Error('the reports example never samples');
            },
            roots: async () => ({ roots: [] })
        }),
        onError: error => complaints.push(`ext-tasks: ${error?.message ?? error}`),
        ...(modeName === 'modern'
            ? {
                  rawDispatch: channel.dispatch,
                  v2RequestFraming: { protocolVersion: mode.version, clientInfo: CLIENT_INFO, clientCapabilities: CLIENT_CAPABILITIES }
              }
            : {})
    });
    check(
        modeName === 'modern' ? 'the requester negotiated tasks with the server' : 'the requester sees no tasks on a legacy connection',
        modeName === 'modern' ? session.capabilities.execution === true : session.capabilities.execution === false,
        session.capabilities
    );

    try {
        if (modeName === 'modern') {
            await modern(session);
        } else {
            await legacy(client, session);
        }
        await importRows(session, questions, value => (answer = value));
    } finally {
        await session.close();
    }
    check('no errors reported by the client or the requester', complaints.length === 0, complaints);
    await client.close();
}

// 2026-07-28: inline under the budget, a task past it, progress, cancellation, an unknown id.
async function modern(session) {
    let execution = await session.callTool('build_report', { topic: 'quick', sections: 1, section_ms: 1 });
    check('a call within the task budget is answered inline', execution.kind === 'immediate', execution.kind);
    let { outcome } = await execution.settle();
    check('the inline report is complete', outcome.status === 'completed' && text(outcome.result).includes('quick'), described(outcome));

    execution = await session.callTool(
        'build_report',
        { topic: 'tides', sections: 6, section_ms: 250 },
        { task: { preference: 'require' } }
    );
    check('a call past the budget is answered with a task', execution.kind === 'task' && typeof execution.handle?.taskId === 'string', execution.kind);
    const views = [];
    ({ outcome } = await execution.settle({
        onEvent: event => {
            if (event.type === 'task') views.push(event.task);
        }
    }));
    const statuses = [...new Set(views.map(view => view.status))];
    check('the task was polled while working', statuses.includes('working'), statuses);
    check('the task completed', outcome.status === 'completed', described(outcome));
    const report = outcome.status === 'completed' ? text(outcome.result) : '';
    check('the result is the report, all six sections', report.includes('tides') && report.includes('Section 6'), report);
    check('the task carried its times and polling hints', views.every(view => view.createdAt && view.lastUpdatedAt && 'retentionMs' in view), views[0]);
    const progress = views.map(view => view.statusMessage).filter(Boolean);
    check('progress was seen in the statusMessage while working', progress.some(message => /section/i.test(message)), progress);

    // Cancelled while it runs: the acknowledgement, then `cancelled` for good.
    execution = await session.callTool(
        'build_report',
        { topic: 'cancelled', sections: 40, section_ms: 250 },
        { task: { preference: 'require' } }
    );
    check('a long report is a task', execution.kind === 'task', execution.kind);
    if (execution.kind === 'task') {
        const taskId = execution.handle.taskId;
        const controller = session.task(taskId);
        const working = await controller.snapshot();
        check('the long report is working', working.status === 'working', working);
        await execution.cancel();
        ({ outcome } = await execution.settle());
        check('the requester sees the cancellation', outcome.status === 'cancelled', described(outcome));
        const view = await terminal(controller);
        check('tasks/get says cancelled', view.status === 'cancelled', view);
        await sleep(600);
        const later = await controller.snapshot();
        check('a cancelled task stays cancelled (its tool stopped)', later.status === 'cancelled' && !('result' in later.raw), later.raw);
    }

    try {
        const view = await session.task('no-such-task').snapshot();
        check('an unknown task id is refused', false, view);
    } catch (error) {
        check('an unknown task id is -32602', error?.code === -32602, { code: error?.code, message: error?.message });
    }
}

// 2025-11-25: no task ever; progress as notifications.
async function legacy(client, session) {
    const progress = [];
    const result = await client.callTool(
        { name: 'build_report', arguments: { topic: 'tides', sections: 3, section_ms: 20 } },
        { onprogress: notification => progress.push(notification) }
    );
    check('the report is answered inline', text(result).includes('tides') && text(result).includes('Section 3'), result);
    check(
        'its progress came as notifications, one per section',
        same(progress.map(p => [p.progress, p.total]), [[1, 3], [2, 3], [3, 3]]),
        progress
    );
    const execution = await session.callTool('build_report', { topic: 'inline', sections: 2, section_ms: 20 });
    check('the requester gets an immediate result', execution.kind === 'immediate', execution.kind);
    const { outcome } = await execution.settle();
    check('and the report', outcome.status === 'completed' && text(outcome.result).includes('inline'), described(outcome));
}

// import_rows: a task that asks midway (modern), or is refused (legacy).
async function importRows(session, questions, answerWith) {
    if (modeName === 'legacy') {
        try {
            const execution = await session.callTool('import_rows', { rows: 20, row_ms: 1 });
            const { outcome } = await execution.settle();
            check('import_rows is refused on a legacy connection', false, described(outcome));
        } catch (error) {
            check('import_rows on a legacy connection is -32021', error?.code === -32021, { code: error?.code, message: error?.message });
        }
        return;
    }
    // Checking 20 rows takes 1.2 s, past the server's one-second budget: the question comes
    // while the call is already a task, as its `inputRequests`, answered with `tasks/update`.
    questions.length = 0;
    answerWith({ action: 'accept', content: { skip: true } });
    let execution = await session.callTool('import_rows', { rows: 20, row_ms: 60 });
    check('import_rows is a task', execution.kind === 'task', execution.kind);
    const statuses = [];
    let { outcome } = await execution.settle({
        onEvent: event => {
            if (event.type === 'task') statuses.push(event.task.status);
        }
    });
    check('the task asked for input', statuses.includes('input_required'), statuses);
    check('the user was asked about the duplicates', same(questions, ['2 rows look like duplicates: skip them?']), questions);
    let result = outcome.status === 'completed' ? resultFromTaskOutcome(outcome) : undefined;
    check('the answer reached the tool: duplicates skipped', text(result ?? {}) === 'Imported 18 rows; skipped 2 duplicates', described(outcome));

    // Within the budget the question is the call's own `input_required` round (the requester
    // answers and retries), and the task comes back already completed.
    questions.length = 0;
    answerWith({ action: 'accept', content: { skip: false } });
    execution = await session.callTool('import_rows', { rows: 30, row_ms: 2 });
    check('a quick import_rows is still a task', execution.kind === 'task', execution.kind);
    ({ outcome } = await execution.settle());
    check('the user was asked within the budget too', same(questions, ['3 rows look like duplicates: skip them?']), questions);
    result = outcome.status === 'completed' ? resultFromTaskOutcome(outcome) : undefined;
    check('another answer, another result: duplicates kept', text(result ?? {}) === 'Imported 30 rows, 3 duplicates included', described(outcome));

    questions.length = 0;
    answerWith({ action: 'decline' });
    execution = await session.callTool('import_rows', { rows: 10, row_ms: 1 });
    ({ outcome } = await execution.settle());
    result = outcome.status === 'completed' ? outcome.result : undefined;
    check('a declined question is a tool error in a completed task', result?.isError === true && /nothing imported/i.test(text(result)), described(outcome));
}

const watchdog = setTimeout(() => {
    console.log(`FAIL ${label} timed out`);
    process.exit(1);
}, 75_000);
watchdog.unref();

try {
    await main();
} catch (error) {
    checks.failed = true;
    console.log(`FAIL ${label} unexpected error: ${error?.stack ?? error}`);
}
console.log(checks.failed ? `${label}: FAILED` : `${label}: all checks passed`);
process.exit(checks.failed ? 1 : 0);
