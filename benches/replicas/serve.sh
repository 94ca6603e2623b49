#!/usr/bin/env bash
# Three replicas of a server behind nginx (round robin, no sticky sessions), sharing one Redis:
# what `benches/replicas.sh` measures as one server.
#
#   bash benches/replicas/serve.sh PORT REDIS_URL SERVER [ARGS...]
#
# nginx listens on 127.0.0.1:PORT (path /mcp goes to the replicas); each replica is
# `SERVER ARGS... --http 127.0.0.1:P --redis REDIS_URL` on a free port P. Everything runs in this
# script's process group and in the foreground, so stopping the group stops it all.
set -euo pipefail
port=$1 redis=$2
shift 2
dir=$(mktemp -d)
cleanup() { kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 143' TERM INT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
upstreams="" ports=()
for _ in 1 2 3; do
  p=$(free_port)
  "$@" --http "127.0.0.1:$p" --redis "$redis" &
  upstreams+="    server 127.0.0.1:$p;"$'\n'
  ports+=("$p")
done
mkdir -p "$dir/logs"
cat >"$dir/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  upstream mcp {
$upstreams    keepalive 64;
  }
  server {
    listen 127.0.0.1:$port;
    location /mcp {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
    }
  }
}
CONF
# The replicas first: the driver's first request through nginx must find them.
for p in "${ports[@]}"; do
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break; sleep 0.05; done
done
nginx -c "$dir/nginx.conf" -p "$dir" &
wait
