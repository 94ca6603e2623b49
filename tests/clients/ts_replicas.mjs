// Drives replicas of examples/replicas behind nginx (round robin, no stickiness, one Redis) with
// the official TypeScript client (@modelcontextprotocol/client v2) over Streamable HTTP. Every
// tool of the example names the replica (its process id) that did the work.
//
//   node tests/clients/ts_replicas.mjs <legacy|modern|kill|term> --url http://127.0.0.1:PORT/mcp
//
// legacy (2025-11-25): one session whose calls are spread over the replicas; its GET stream
//   hears `tools/list_changed` raised on every replica; a tool that asks (elicitation), the
//   answer POSTed through the balancer to whichever replica.
// modern (2026-07-28): calls spread over the replicas; a question round whose retry (the answer
//   and the sealed requestState) lands on another replica than the one that asked.
// kill / term (2025-11-25): a call streaming progress; its replica is sent SIGKILL / SIGTERM
//   (this script sends it: the pid is in the progress message) after a few events; the client
//   resumes through nginx with `Last-Event-ID` and sees every event: with SIGTERM every step
//   and the result, with SIGKILL the steps kept, then the -32603 error response.
//
// One line per check; exit 1 if any failed. The line `signalled PID` says which replica was
// sent a signal, for the test to check it exited.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Checks, text } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' },
    kill: { negotiation: { mode: 'legacy' }, version: '2025-11-25', signal: 'SIGKILL' },
    term: { negotiation: { mode: 'legacy' }, version: '2025-11-25', signal: 'SIGTERM' }
};

const [modeName, flag, url] = process.argv.slice(2);
const mode = MODES[modeName];
if (!mode || flag !== '--url' || !url) {
    console.error(`usage: ts_replicas.mjs <${Object.keys(MODES).join('|')}> --url URL`);
    process.exit(2);
}

const label = `ts/replicas/${modeName}`;
const checks = new Checks(label);
const check = checks.check;
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// The pid a tool's text names ("… pid 1234 …").
const pidIn = value => Number(/pid (\d+)/.exec(value ?? '')?.[1]);

// Every request the transport makes: its method, its headers that matter here, its status.
const exchanges = [];
async function recordingFetch(input, init) {
    const headers = new Headers(init?.headers);
    const exchange = { method: init?.method, lastEventId: headers.get('last-event-id') ?? undefined };
    exchanges.push(exchange);
    const response = await fetch(input, init);
    exchange.status = response.status;
    return response;
}

async function until(condition, milliseconds) {
    for (const deadline = Date.now() + milliseconds; !condition() && Date.now() < deadline; ) {
        await sleep(20);
    }
    return condition();
}

async function connect() {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
        fetch: recordingFetch,
        // Resume at once: the balancer sends the GET to a replica that is alive.
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 }
    });
    const client = new Client(
        { name: 'mcp-toolbelt-ts-replicas', version: '0.0.0' },
        { versionNegotiation: mode.negotiation, capabilities: { elicitation: { form: {} } } }
    );
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    const asked = [];
    client.setRequestHandler('elicitation/create', async request => {
        asked.push(request.params.message);
        return { action: 'accept', content: { name: 'Ada' } };
    });
    const heard = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => heard.push('tools/list_changed'));
    await client.connect(transport, { timeout: 10_000 });
    check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());
    return { client, complaints, asked, heard };
}

// `whoami` called `times` times: the pids that answered.
async function spread(client, times) {
    const pids = new Set();
    for (let call = 0; call < times; call++) {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        pids.add(pidIn(text(result)));
    }
    return pids;
}

async function askName(client, asked) {
    asked.length = 0;
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    check('the tool that asks gets the answer', !result.isError && text(result).startsWith('Hello, Ada!'), result);
    check('the question was asked once', asked.length === 1 && asked[0].startsWith('What is your name?'), asked);
    return result;
}

async function legacy() {
    const { client, complaints, asked, heard } = await connect();
    const pids = await spread(client, 6);
    check('the session was served by at least 2 replicas', pids.size >= 2, [...pids]);

    // The GET stream opens after `initialized`: wait for it, then raise a change on each replica
    // in turn (round robin), each heard on the one GET stream, wherever it is.
    check('the GET stream is open', await until(() => exchanges.some(e => e.method === 'GET' && e.status === 200), 5_000), exchanges);
    const changedOn = new Set();
    for (let change = 1; change <= 6; change++) {
        const result = await client.callTool({ name: 'change_tools', arguments: {} });
        changedOn.add(pidIn(text(result)));
        const ok = await until(() => heard.length >= change, 5_000);
        check(`list_changed ${change} (raised on pid ${pidIn(text(result))}) heard on the GET stream`, ok, heard);
        if (!ok) break;
    }
    check('the changes were raised on at least 2 replicas', changedOn.size >= 2, [...changedOn]);

    // Three times: each answer's POST goes through the balancer at another turn of the round
    // robin, so at least one reaches another replica than the one whose tool waits for it.
    for (let round = 0; round < 3; round++) await askName(client, asked);
    const gets = exchanges.filter(e => e.method === 'GET');
    check('one GET stream for the whole session', gets.length === 1, gets);
    check('the SDK reported no errors', complaints.length === 0, complaints);
    await client.close();
}

async function modern() {
    const { client, complaints, asked } = await connect();
    const pids = await spread(client, 6);
    check('calls were served by at least 2 replicas', pids.size >= 2, [...pids]);
    // Round robin: the retry of a round goes to the next replica; try a few rounds so that one
    // asked on one replica is surely answered on another.
    let crossed = false;
    for (let round = 0; round < 3 && !crossed; round++) {
        // The question names the replica whose round asked it; the result the one whose round
        // (the retry, with the answer) finished the call.
        const result = await askName(client, asked);
        const askedOn = pidIn(asked[0]);
        const answeredOn = Number(/answered on pid (\d+)/.exec(text(result))?.[1]);
        crossed = Number.isInteger(askedOn) && Number.isInteger(answeredOn) && askedOn !== answeredOn;
    }
    check('a round asked on one replica was answered on another', crossed);
    check('the SDK reported no errors', complaints.length === 0, complaints);
    await client.close();
}

async function resume() {
    const { client, complaints } = await connect();
    const steps = 30;
    const progress = [];
    let signalled;
    const call = client.callTool(
        { name: 'count', arguments: { steps, step_ms: 100 } },
        {
            timeout: 60_000,
            resetTimeoutOnProgress: true,
            onprogress: update => {
                progress.push(update.progress);
                if (update.progress === 5 && signalled === undefined) {
                    signalled = pidIn(update.message);
                    process.kill(signalled, mode.signal);
                    console.log(`signalled ${signalled}`);
                }
            }
        }
    );
    let result;
    let error;
    try {
        result = await call;
    } catch (caught) {
        error = caught;
    }
    check('a replica was signalled mid-call', Number.isInteger(signalled), progress);
    // The session's GET stream resumes too when it was on that replica: its event ids start
    // with `get-`; the call's stream is the other.
    const resumed = exchanges.filter(e => e.method === 'GET' && e.lastEventId !== undefined && !e.lastEventId.startsWith('get-'));
    check('the client resumed with Last-Event-ID', resumed.some(e => e.status === 200), exchanges);
    const inOrder = progress.every((step, index) => step === index + 1);
    if (mode.signal === 'SIGTERM') {
        check('every step, once, in order', inOrder && progress.length === steps, progress);
        check('the result', result !== undefined && !result.isError && text(result) === `Counted to ${steps} on pid ${signalled}`, result ?? String(error));
    } else {
        check('every step kept, once, in order', inOrder && progress.length >= 5, progress);
        check('then the -32603 error response', error?.code === -32603, `${error?.code} ${error?.message} ${JSON.stringify(result)}`);
    }
    // The session lives on, on the other replicas.
    const after = await client.callTool({ name: 'whoami', arguments: {} });
    check('the session goes on after the replica is gone', pidIn(text(after)) !== signalled, after);
    // The cut stream is reported (and resumed): said, not checked.
    console.log(`info ${label} the SDK reported: ${JSON.stringify(complaints)}`);
    await client.close();
}

const watchdog = setTimeout(() => {
    console.log(`FAIL ${label} timed out`);
    process.exit(1);
}, 90_000);
watchdog.unref();

try {
    await { legacy, modern, kill: resume, term: resume }[modeName]();
} catch (error) {
    checks.failed = true;
    console.log(`FAIL ${label} unexpected error: ${error?.stack ?? error}`);
}
console.log(checks.failed ? `${label}: FAILED` : `${label}: all checks passed`);
process.exit(checks.failed ? 1 : 0);
