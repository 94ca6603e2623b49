// Drives the prompts and completions of the conformance example with the official TypeScript
// client (@modelcontextprotocol/client v2), over stdio or Streamable HTTP: lists and gets prompts
// (text, arguments, an image, an embedded resource), a refused call, completes an argument, and
// answers the question a prompt asks (a request in legacy mode, an `input_required` result the
// SDK fulfils and retries in modern mode).
//
//   node tests/clients/ts_prompts.mjs <legacy|auto|modern> <server command> [args...]
//   node tests/clients/ts_prompts.mjs <legacy|auto|modern> --url http://127.0.0.1:PORT/mcp
//
// One line per check; exit 1 if any failed.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    auto: { negotiation: { mode: 'auto' }, version: '2026-07-28' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};

const [modeName, command, ...args] = process.argv.slice(2);
const mode = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!mode || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_prompts.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}

const label = `ts-prompts/${url ? 'http' : 'stdio'}/${modeName}`;
const checks = new Checks(label);
const check = checks.check;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function main() {
    const transport = url
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const client = new Client(
        { name: 'mcp-toolbelt-ts-prompts', version: '0.0.0' },
        { versionNegotiation: mode.negotiation, capabilities: { elicitation: { form: {} } } }
    );
    const complaints = [];
    client.onerror = error => complaints.push(String(error?.message ?? error));
    const asked = [];
    client.setRequestHandler('elicitation/create', async request => {
        asked.push(request.params.message);
        return { action: 'accept', content: { context: 'a rainy day' } };
    });
    await client.connect(transport, { timeout: 10_000 });
    check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());
    const capabilities = client.getServerCapabilities() ?? {};
    check('server advertises prompts that may change', capabilities.prompts?.listChanged === true, capabilities);
    check('server advertises completions', capabilities.completions !== undefined, capabilities);

    const { prompts } = await client.listPrompts();
    const byName = Object.fromEntries(prompts.map(prompt => [prompt.name, prompt]));
    for (const name of ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image', 'test_input_required_result_prompt']) {
        check(`${name} is listed with a description`, Boolean(byName[name]?.description), byName[name]);
    }
    check(
        'arguments are listed, required, with their descriptions',
        same(byName.test_prompt_with_arguments?.arguments, [
            { name: 'arg1', description: 'First test argument', required: true },
            { name: 'arg2', description: 'Second test argument', required: true }
        ]),
        byName.test_prompt_with_arguments
    );

    let result = await client.getPrompt({ name: 'test_simple_prompt' });
    check(
        'a text prompt is one user message',
        same(result.messages, [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]),
        result
    );
    result = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'sun', arg2: 'rain' } });
    check('arguments reach the prompt', result.messages[0]?.content?.text === "Prompt with arguments: arg1='sun', arg2='rain'", result);
    result = await client.getPrompt({ name: 'test_prompt_with_image' });
    const image = result.messages[0]?.content;
    check('an image message', image?.type === 'image' && image.mimeType === 'image/png' && Boolean(image.data), image);
    result = await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://doc' } });
    const embedded = result.messages[0]?.content;
    check('an embedded resource message', embedded?.type === 'resource' && embedded.resource?.uri === 'test://doc', embedded);
    try {
        await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'sun' } });
        check('a missing argument is refused', false);
    } catch (error) {
        check('a missing argument is -32602 naming it', error?.code === -32602 && String(error?.message).includes('arg2'), String(error));
    }

    const completed = await client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'tes' }
    });
    check('an argument completes from its completer', same(completed.completion?.values, ['test', 'testing', 'tested']), completed);

    asked.length = 0;
    result = await client.getPrompt({ name: 'test_input_required_result_prompt' });
    check('the prompt asked the user', same(asked, ['What context should the prompt use?']), asked);
    check('the prompt uses the answer', result.messages[0]?.content?.text === 'Write with this context: a rainy day', result);
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
