"""On demand, never in CI: issue 21 item 10, the axum-app example under 600 idle sockets and a
client that sends its headers a byte a second (about 40 s).

    python3 benches/attacks/axum_app.py target/debug/examples/axum-app
"""
import asyncio, socket, subprocess, sys, time, os

BIN = sys.argv[1]

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

async def main():
    port = free_port()
    env = dict(os.environ, APP_TOKENS="t=inventory:read")
    server = subprocess.Popen([BIN, f"127.0.0.1:{port}"], stderr=subprocess.DEVNULL, env=env)
    await asyncio.sleep(1.0)
    idle = []
    for _ in range(600):
        r, w = await asyncio.open_connection("127.0.0.1", port)
        idle.append((r, w))
    slow_r, slow_w = await asyncio.open_connection("127.0.0.1", port)
    async def drip():
        for b in b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 100:
            try:
                slow_w.write(bytes([b])); await slow_w.drain()
            except Exception:
                return
            await asyncio.sleep(1)
    asyncio.ensure_future(drip())
    t = time.monotonic()
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(f"GET /health HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n".encode())
    try:
        line = (await asyncio.wait_for(r.readline(), 10)).decode().strip()
    except Exception as e:
        line = f"<{type(e).__name__}>"
    print(f"with 600 idle sockets open, a fresh GET /health: {line!r} after {time.monotonic() - t:.2f} s")
    closed_idle = 0
    for ir, _ in idle:
        try:
            data = await asyncio.wait_for(ir.read(1), 0.001)
            closed_idle += data == b""
        except Exception:
            pass
    print(f"idle sockets already closed by the server: {closed_idle} of 600")
    await asyncio.sleep(34)
    try:
        data = await asyncio.wait_for(slow_r.read(100), 0.5)
        state = "closed" if data == b"" else f"answered {data[:20]!r}"
    except asyncio.TimeoutError:
        state = "still open"
    except Exception as e:
        state = f"closed ({type(e).__name__})"
    print(f"slow-header socket after 35 s: {state}")
    server.terminate(); server.wait()

asyncio.run(main())
