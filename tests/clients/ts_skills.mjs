// Drives the skills of the notes example with the official TypeScript client's Skills extension
// (@modelcontextprotocol/client v2, `SkillsClient` from `@modelcontextprotocol/client/ext/skills`),
// over stdio or Streamable HTTP: the capability, the listing, a skill by its URI, its SKILL.md
// and a reference read and verified against the entry's sizes, digests and front matter, a
// directory read, and an unknown skill refused.
//
//   node tests/clients/ts_skills.mjs <legacy|auto|modern> <server command> [args...]
//   node tests/clients/ts_skills.mjs <legacy|auto|modern> --url http://127.0.0.1:PORT/mcp
//
// One line per check; exit 1 if any failed.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Checks, same } from './checks.mjs';

const MODES = {
    legacy: { negotiation: { mode: 'legacy' }, version: '2025-11-25' },
    auto: { negotiation: { mode: 'auto' }, version: '2026-07-28' },
    modern: { negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' }
};

const [modeName, command, ...args] = process.argv.slice(2);
const mode = MODES[modeName];
const url = command === '--url' ? args[0] : undefined;
if (!mode || !command || (command === '--url' && args.length !== 1)) {
    console.error(`usage: ts_skills.mjs <${Object.keys(MODES).join('|')}> (<server command> [args...] | --url URL)`);
    process.exit(2);
}

const label = `ts-skills/${url ? 'http' : 'stdio'}/${modeName}`;
const checks = new Checks(label);
const check = checks.check;
const SKILL = 'skill://note-taking/SKILL.md';

async function main() {
    const transport = url
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
    const client = new Client({ name: 'mcp-toolbelt-ts-skills', version: '0.0.0' }, { versionNegotiation: mode.negotiation });
    await client.connect(transport, { timeout: 10_000 });
    const modern = mode.version === '2026-07-28';
    check('protocol version', client.getNegotiatedProtocolVersion() === mode.version, client.getNegotiatedProtocolVersion());
    const skills = new SkillsClient(client);
    check('the server declares the skills extension', skills.supported, client.getServerCapabilities());
    check('and resources/directory/read', skills.directoryRead, client.getServerCapabilities());

    const listing = await skills.list();
    check('one skill is listed, note-taking', same(listing.skills.map(skill => skill.uri), [SKILL]), listing.skills);
    check('no entry was refused', listing.invalid.length === 0, listing.invalid);
    check('the listing carries its caching fields at 2026-07-28', (listing.ttlMs !== undefined) === modern, listing);
    const entry = listing.skills[0];
    check('its front matter names and describes it', entry?.frontmatter?.name === 'note-taking' && /findable/.test(entry?.frontmatter?.description ?? ''), entry?.frontmatter);
    const files = Array.isArray(entry?.resources) ? entry.resources.map(file => file.uri).sort() : [];
    check('its files are SKILL.md and the search reference', same(files, [SKILL, 'skill://note-taking/references/SEARCH.md']), entry?.resources);

    const skillMd = await skills.read(entry);
    check('SKILL.md is read and verified (size, digest, front matter)', skillMd.verified && skillMd.frontmatter?.name === 'note-taking', skillMd);
    check('its body is the instructions', /# Note taking/.test(skillMd.body ?? ''), skillMd.body);
    const reference = await skills.read(entry, 'references/SEARCH.md');
    check('a reference is read relative to the skill and verified', reference.verified && /Search syntax/.test(reference.text ?? ''), reference);

    const got = await skills.get(SKILL);
    check('skills/get gives the listed entry', same(got.skill, entry), got);
    check('with its caching fields at 2026-07-28', (got.ttlMs !== undefined) === modern, got);

    const root = await skills.readDirectory('skill://note-taking');
    const children = root.resources.map(child => `${child.uri} ${child.mimeType}`);
    check(
        'the skill directory lists SKILL.md and the references folder',
        same(children, [`${SKILL} text/markdown`, 'skill://note-taking/references inode/directory']),
        children
    );

    let refused;
    try {
        await skills.get('skill://no-such-skill/SKILL.md');
    } catch (error) {
        refused = error;
    }
    check('an unknown skill is -32602', refused?.code === -32602, String(refused));
    await client.close();
}

try {
    await main();
} catch (error) {
    check('the run completed', false, String(error?.stack ?? error));
}
process.exit(checks.failed ? 1 : 0);
