// The catalog's five tools on the official TypeScript server SDK, written as its README
// teaches: McpServer, zod schemas, serveStdio for stdio, createMcpHandler on node:http.
//
//   node catalog.mjs               # stdio
//   node catalog.mjs --http 8080   # Streamable HTTP on 127.0.0.1:8080/mcp
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';

const PRODUCTS = [['Espresso cup', 12.0], ['Travel mug', 24.0], ['Mug rack', 36.0]];
const text = (value) => ({ content: [{ type: 'text', text: value }] });

function catalog() {
    const server = new McpServer({ name: 'catalog', version: '0.1.0' }, { capabilities: { tools: {} } });
    server.registerTool('search', {
        description: 'Search the product catalog',
        inputSchema: z.object({
            query: z.string().describe('Substring to match against product names'),
            limit: z.number().int().max(50).optional().describe('Maximum number of results (default 10)'),
        }),
        annotations: { readOnlyHint: true },
    }, async ({ query, limit }) => text(PRODUCTS
        .filter(([name]) => name.toLowerCase().includes(query.toLowerCase()))
        .slice(0, limit ?? 10).map(([name]) => name).join('\n')));
    const product = z.object({ name: z.string(), price: z.number() });
    server.registerTool('product-details', {
        description: 'Look up one product by its exact name',
        inputSchema: z.object({ name: z.string().describe("The product's exact name, as `search` returns it") }),
        outputSchema: product,
        annotations: { readOnlyHint: true },
    }, async ({ name }) => {
        const found = PRODUCTS.find(([product]) => product === name);
        if (!found) return { ...text(`No product named ${JSON.stringify(name)} in the catalog`), isError: true };
        const output = { name: found[0], price: found[1] };
        return { ...text(JSON.stringify(output)), structuredContent: output };
    });
    server.registerTool('get-weather', {
        title: 'Get Weather',
        description: 'Get current weather for a location',
        inputSchema: z.object({ location: z.string().describe('City name') }),
        outputSchema: z.object({ temperatureC: z.number(), summary: z.string() }),
        annotations: { readOnlyHint: true, openWorldHint: false },
    }, async ({ location }) => {
        const output = { temperatureC: 22.0, summary: `${location}: partly cloudy` };
        return { ...text(JSON.stringify(output)), structuredContent: output };
    });
    server.registerTool('echo', {
        description: 'Echo the message back',
        inputSchema: z.object({ message: z.string().describe('The message to send back') }),
    }, async ({ message }) => text(message));
    server.registerTool('clear-catalog', {
        title: 'Clear the catalog',
        description: 'Remove every product from the catalog',
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    }, async () => text('Catalog cleared'));
    return server;
}

const at = process.argv.indexOf('--http');
if (at === -1) {
    serveStdio(catalog);
} else {
    const port = Number(process.argv[at + 1]);
    const handler = toNodeHandler(createMcpHandler(catalog));
    const server = http.createServer((request, response) => {
        if (!request.url.startsWith('/mcp')) {
            response.writeHead(404).end();
            return;
        }
        handler(request, response);
    });
    server.on('connection', (socket) => socket.setNoDelay(true));
    server.listen(port, '127.0.0.1');
}
