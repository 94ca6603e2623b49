"""On demand, never in CI: the fairness attacks of issue 21 (items 2, 3, 5, 11) against
`catalog --http`, each printing what a fresh client gets and when.

    python3 benches/attacks/fairness.py target/debug/examples/catalog streams|slowbody|sessions|expect

streams: 512 `subscriptions/listen` streams from one client, then a fresh `tools/list`;
slowbody: 641 bodies at a byte every 3 s, then a fresh `tools/list`; sessions: 1,024
`initialize`s each named once, then one more; expect: a 5,000,000-byte `Content-Length` with
`Expect: 100-continue`, and a gzip body. Loopback only; every wait is bounded.
"""
import asyncio, json, socket, subprocess, sys, time

BIN = sys.argv[1]
ATTACK = sys.argv[2]

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

def post(port, body, method, extra=""):
    data = json.dumps(body)
    return (f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n"
            f"{extra}Content-Length: {len(data)}\r\n\r\n{data}").encode()

async def head(reader, timeout):
    try:
        return (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)).decode(errors="replace")
    except Exception as e:
        return f"<{type(e).__name__}>"

async def fresh(port, timeout=10):
    t = time.monotonic()
    try:
        r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        w.write(post(port, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": ENVELOPE}}, "tools/list"))
        h = await head(r, timeout - (time.monotonic() - t))
    except Exception as e:
        h = f"<{type(e).__name__}>"
    return h.split("\r\n")[0], time.monotonic() - t

async def main():
    port = free_port()
    server = subprocess.Popen([BIN, "--http", f"127.0.0.1:{port}"], stderr=subprocess.DEVNULL)
    await asyncio.sleep(1.0)
    held = []
    try:
        if ATTACK == "streams":
            statuses = {}
            async def one(i):
                r, w = await asyncio.open_connection("127.0.0.1", port)
                body = {"jsonrpc": "2.0", "id": i, "method": "subscriptions/listen", "params": {"notifications": {"toolsListChanged": True}, "_meta": ENVELOPE}}
                w.write(post(port, body, "subscriptions/listen"))
                h = await head(r, 5)
                statuses[h.split("\r\n")[0]] = statuses.get(h.split("\r\n")[0], 0) + 1
                held.append(w)
            await asyncio.gather(*(one(i) for i in range(512)))
            print("512 listen streams:", statuses)
        elif ATTACK == "slowbody":
            async def one(i):
                try:
                    r, w = await asyncio.open_connection("127.0.0.1", port)
                except Exception:
                    return
                held.append(w)
                w.write(f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 1000\r\n\r\n{{".encode())
                for _ in range(20):
                    await asyncio.sleep(3)
                    try:
                        w.write(b" "); await w.drain()
                    except Exception:
                        return
            tasks = [asyncio.ensure_future(one(i)) for i in range(641)]
            await asyncio.sleep(2)
            print("641 slow bodies (1 byte / 3 s) open")
        elif ATTACK == "sessions":
            statuses = {}
            for i in range(1024):
                r, w = await asyncio.open_connection("127.0.0.1", port)
                init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "flood", "version": "1"}}}
                data = json.dumps(init)
                w.write((f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\nContent-Length: {len(data)}\r\n\r\n{data}").encode())
                resp = (await r.read()).decode(errors="replace")
                sid = [l.split(":", 1)[1].strip() for l in resp.split("\r\n") if l.lower().startswith("mcp-session-id:")]
                w.close()
                if sid:
                    r, w = await asyncio.open_connection("127.0.0.1", port)
                    data = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
                    w.write((f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nMcp-Session-Id: {sid[0]}\r\nMcp-Protocol-Version: 2025-11-25\r\nConnection: close\r\nContent-Length: {len(data)}\r\n\r\n{data}").encode())
                    await r.read(); w.close()
            r, w = await asyncio.open_connection("127.0.0.1", port)
            data = json.dumps(init)
            w.write((f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\nContent-Length: {len(data)}\r\n\r\n{data}").encode())
            print("after 1,024 sessions named once, a new initialize:", (await head(r, 5)).split("\r\n")[0])
            return
        elif ATTACK == "expect":
            r, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n".encode())
            print("Content-Length 5,000,000 with Expect: first line:", (await head(r, 5)).split("\r\n")[0])
            import gzip
            data = gzip.compress(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": ENVELOPE}}).encode())
            r, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(f"POST /mcp HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Encoding: gzip\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nConnection: close\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
            resp = (await r.read()).decode(errors="replace")
            print("gzip body:", resp.split("\r\n")[0], "|", resp.split("\r\n\r\n", 1)[-1][:160])
            return
        status, took = await fresh(port)
        print(f"fresh tools/list: {status!r} after {took:.2f} s")
    finally:
        for w in held:
            try: w.close()
            except Exception: pass
        server.terminate(); server.wait()

asyncio.run(main())
