// What every client script prints: one line per check, and whether any failed.

export class Checks {
    constructor(label) {
        this.label = label;
        this.failed = false;
    }

    check = (name, condition, detail) => {
        if (condition) {
            console.log(`ok   ${this.label} ${name}`);
        } else {
            this.failed = true;
            console.log(`FAIL ${this.label} ${name}${detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
        }
        return condition;
    };
}

// The text blocks of a tool result, one per line.
export function text(result) {
    return (result.content ?? []).filter(block => block.type === 'text').map(block => block.text).join('\n');
}

// Whether two JSON values are the same.
export function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
}
