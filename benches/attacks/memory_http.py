# On demand, never in CI (issue 21 item 1): python3 benches/attacks/memory_http.py CATALOG_BINARY N
# prints the RSS of `catalog --http` after N listen streams and N running calls, each sent a 4 MiB body of [0,…] in params
import json, os, socket, subprocess, sys, time
binary, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
env = dict(os.environ, CATALOG_TEST_TOOLS="1")
proc = subprocess.Popen([binary, "--http", f"127.0.0.1:{port}"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def kib(field):
    for line in open(f"/proc/{proc.pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
for _ in range(200):
    try: socket.create_connection(("127.0.0.1", port)).close(); break
    except OSError: time.sleep(0.05)
junk = '"junk":[' + "0," * 1999999 + "0],"
def msg(i, method, params):
    params["_meta"] = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "progressToken": f"p{i}"}
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}, separators=(",", ":"))
def post(body, method, name, until, junked=True):
    if junked:
        k = body.index('"params":{') + len('"params":{'); body = body[:k] + junk + body[k:]
    c = socket.create_connection(("127.0.0.1", port)); c.settimeout(60)
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n" + (f"Mcp-Name: {name}\r\n" if name else "") + f"Content-Length: {len(body)}\r\n\r\n")
    c.sendall(head.encode() + body.encode()); seen = b""
    while until.encode() not in seen:
        d = c.recv(65536)
        if not d: raise SystemExit(f"closed: {seen[:300]!r}")
        seen += d
    return c, seen
print(f"start: VmRSS {kib('VmRSS')//1024} MiB")
keep = []
for i in range(n):
    keep.append(post(msg(i, "subscriptions/listen", {"notifications": {"toolsListChanged": True}}), "subscriptions/listen", None, "acknowledged")[0])
print(f"{n} listen streams: VmRSS {kib('VmRSS')//1024} MiB, VmHWM {kib('VmHWM')//1024} MiB")
for i in range(n, 2 * n):
    keep.append(post(msg(i, "tools/call", {"name": "wait", "arguments": {"seconds": 120}}), "tools/call", "wait", "waiting")[0])
print(f"+ {n} running calls: VmRSS {kib('VmRSS')//1024} MiB, VmHWM {kib('VmHWM')//1024} MiB")
t = time.time(); _, answer = post(msg(999, "tools/list", {}), "tools/list", None, '"echo"', junked=False)
print(f"fresh tools/list: {answer.split(b' ')[1].decode()} in {1000*(time.time()-t):.0f} ms; VmHWM {kib('VmHWM')//1024} MiB")
proc.kill()
