// Checks elicitation requests with the official TypeScript client's own schema (its exported
// zod schemas, `specTypeSchemas`): the client refuses a whole `elicitation/create` (and a
// 2026-07-28 `inputRequests` entry, whose form is the same) over one property it does not take.
//
//   node form_check.mjs FILE
//
// FILE is a JSON list of {"source": "...", "params": {...}}, the params of each
// `elicitation/create` a server sent (tests/tests/forms_typescript.rs collects them). Prints one
// line per form and exits 1 when the client refuses one.
import { readFileSync } from "node:fs";
import { specTypeSchemas } from "@modelcontextprotocol/client";

const forms = JSON.parse(readFileSync(process.argv[2], "utf8"));
let refused = 0;
for (const { source, params } of forms) {
    const request = { method: "elicitation/create", params };
    const checks = [
        specTypeSchemas.ElicitRequest["~standard"].validate(request),
        specTypeSchemas.ElicitRequestFormParams["~standard"].validate(params),
    ];
    const issues = checks.flatMap((check) => check.issues ?? []);
    if (issues.length === 0) {
        console.log(`accepted: ${source}`);
    } else {
        refused += 1;
        // The deepest issues say which property and why (`path ["default"]: expected string`).
        const leaves = [];
        const walk = (issue, path) => {
            const here = [...path, ...(issue.path ?? [])];
            if (issue.errors) issue.errors.flat().forEach((inner) => walk(inner, here));
            else leaves.push(`${JSON.stringify(here)}: ${issue.message}`);
        };
        issues.forEach((issue) => walk(issue, []));
        console.log(`REFUSED: ${source}: ${[...new Set(leaves)].slice(0, 6).join("; ")}`);
    }
}
console.log(`${forms.length} forms, ${refused} refused by @modelcontextprotocol/client`);
process.exit(refused === 0 && forms.length > 0 ? 0 : 1);
