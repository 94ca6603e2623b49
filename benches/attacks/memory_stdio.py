# On demand, never in CI (issue 21 item 1): python3 benches/attacks/memory_stdio.py CATALOG_BINARY N
# prints the RSS of the stdio catalog after N running calls, each a 4 MiB line with [0,…] in params
import json, os, subprocess, sys, time
binary, n = sys.argv[1], int(sys.argv[2])
proc = subprocess.Popen([binary], env=dict(os.environ, CATALOG_TEST_TOOLS="1"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def kib(field):
    for line in open(f"/proc/{proc.pid}/status"):
        if line.startswith(field + ":"): return int(line.split()[1])
def send(obj, junk=False):
    text = json.dumps(obj, separators=(",", ":"))
    if junk:
        k = text.index('"params":{') + len('"params":{'); text = text[:k] + '"junk":[' + "0," * 1999999 + "0]," + text[k:]
    proc.stdin.write(text.encode() + b"\n"); proc.stdin.flush()
def until(pred):
    while True:
        m = json.loads(proc.stdout.readline())
        if pred(m): return m
send({"jsonrpc": "2.0", "id": "i", "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "m", "version": "0"}}})
until(lambda m: m.get("id") == "i")
print(f"start: VmRSS {kib('VmRSS')//1024} MiB")
for i in range(n):
    send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "wait", "arguments": {"seconds": 120}, "_meta": {"progressToken": i}}}, junk=True)
    until(lambda m: m.get("method") == "notifications/progress" and m["params"]["progressToken"] == i)
print(f"{n} running calls: VmRSS {kib('VmRSS')//1024} MiB, VmHWM {kib('VmHWM')//1024} MiB")
t = time.time(); send({"jsonrpc": "2.0", "id": "l", "method": "tools/list", "params": {}}); until(lambda m: m.get("id") == "l")
print(f"tools/list answered in {1000*(time.time()-t):.0f} ms; VmHWM {kib('VmHWM')//1024} MiB")
proc.kill()
