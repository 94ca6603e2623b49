#!/usr/bin/env python3
"""Writes the seed corpora (corpus/<target>/seed-*): real messages, as tests/ and the conformance
fixtures send them, in each target's input form. Run again after changing a target's form;
libFuzzer adds what it finds next to them (those are not checked in)."""
import json, os, pathlib

HERE = pathlib.Path(__file__).parent / "corpus"
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    "io.modelcontextprotocol/clientInfo": {"name": "seed", "version": "0"},
}


def rpc(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, ensure_ascii=False).encode()


def write(target, seeds):
    folder = HERE / target
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("seed-*"):
        old.unlink()
    for n, seed in enumerate(seeds):
        (folder / f"seed-{n:02}").write_bytes(seed)


messages = [
    rpc(1, "tools/list", {}),
    rpc(2, "tools/list", {"cursor": "ZWNobw"}),
    rpc(3, "tools/call", {"name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": "p"}}),
    rpc("x", "tools/call", {"name": "book", "arguments": {"guests": [{"name": "Ada", "age": 36}], "class": "economy", "payment": {"kind": "card", "last4": "1234"}, "nights": 2.0}}),
    rpc(5, "tools/call", {"name": "confirm", "arguments": {"path": "/a"}, "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": True}}}, "requestState": "AAAA"}),
    rpc(6, "ping"),
    rpc(7, "logging/setLevel", {"level": "warning"}),
    rpc(8, "server/discover", {}),
    rpc(9, "subscriptions/listen", {"notifications": {"toolsListChanged": True}}),
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}',
    b'[' + rpc(10, "ping") + b',' + rpc(11, "tools/list") + b']',
    rpc(123456789012345678901234567890, "ping"),
    b'{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"confirm":true}}}',
]
# The first byte picks the era: 0-3 a legacy version after `initialize`, 4 2026-07-28.
write("message", [bytes([mode]) + m for mode, m in [(3, messages[0]), (4, messages[1]), (3, messages[2]),
      (4, messages[3]), (4, messages[4]), (0, messages[5]), (2, messages[6]), (4, messages[7]),
      (4, messages[8]), (3, messages[9]), (1, messages[10]), (3, messages[11]), (3, messages[12])]])

write("stdio_codec", [
    bytes([64, 16]) + messages[0] + b"\n" + messages[5] + b"\r\n\n",
    bytes([8, 3]) + b"12345678\n123456789\r\nok\nlast",
    bytes([32, 1]) + b"\xff\xfe{\"a\":1}\n\x00\n",
])

# The first byte picks the tool: echo, add, book, route, confirm.
write("arguments", [
    b"\x00" + json.dumps({"text": "hi"}).encode(),
    b"\x01" + json.dumps({"a": 1, "b": 2}).encode(),
    b"\x01" + json.dumps({"a": 3.0, "b": None}).encode(),
    b"\x02" + json.dumps({"guests": [{"name": "Ada"}], "class": "business", "payment": {"kind": "invoice", "days": 30}, "nights": 1, "labels": {"k": "v"}}).encode(),
    b"\x02" + json.dumps({"guests": [], "class": "economy", "payment": {"kind": "cash"}, "nights": 0.5, "windowSeat": True}).encode(),
    b"\x03" + json.dumps({"region": "us-west1", "count": 42, "flag": True, "sql": "select 1"}).encode(),
])


def http(method, headers, body=b""):
    head = method + "\n" + "".join(f"{k}: {v}\n" for k, v in headers)
    return head.encode() + b"\n" + body


local = [("host", "localhost:8080"), ("content-type", "application/json"), ("accept", "application/json, text/event-stream")]
modern_call = rpc(1, "tools/call", {"name": "route", "arguments": {"region": "Hello, 世界", "count": 42, "flag": False, "sql": "q"}, "_meta": MODERN_META})
write("http_request", [
    http("POST", local + [("mcp-protocol-version", "2025-11-25")], rpc(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "0"}})),
    http("POST", local + [("mcp-protocol-version", "2025-11-25"), ("mcp-session-id", "0123456789abcdef0123456789abcdef")], rpc(2, "tools/list", {})),
    http("POST", local + [("origin", "http://localhost:3000"), ("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "route"),
                          ("mcp-param-region", "=?base64?SGVsbG8sIOS4lueVjA==?="), ("mcp-param-count", "42.0"), ("mcp-param-flag", "false")], modern_call),
    http("POST", local + [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "=?base64?ZWNobw==?=")], rpc(3, "tools/call", {"name": "echo", "arguments": {"text": "x"}, "_meta": MODERN_META})),
    http("POST", [("host", "evil.example"), ("origin", "https://evil.example"), ("content-type", "application/json")], rpc(4, "ping")),
    http("GET", [("host", "[::1]:80"), ("accept", "text/event-stream"), ("mcp-session-id", "nope")]),
    http("DELETE", [("host", "127.0.0.1"), ("mcp-session-id", "0123")]),
    http("POST", local + [("mcp-protocol-version", "2025-03-26")], b'[' + rpc(1, "ping") + b']'),
])

write("parsers", [
    b"\x00localhost:8080", b"\x00[::1]:3000", b"\x00Example.COM.", b"\x01http://localhost:5173",
    b"\x01https://[::1]", b"\x01null", b"\x02=?base64?SGVsbG8=?=", b"\x02us-west1", b"\x02=?base64?SGVs!!!bG8=?=",
    b"\x03ZWNobw", b"\x03!!", b"\x04" + b"0123456789abcdef0123456789abcdef",
])

write("request_state", [
    b"AAAA", b"not state",
    json.dumps({"confirm": {"action": "accept", "content": {"confirm": True}}}).encode(),
    json.dumps({"step1": {"action": "decline"}, "step2": {"roots": [{"uri": "file:///a"}]}}).encode(),
])
