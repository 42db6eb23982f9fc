#!/usr/bin/env bash
# `make conformance`: chapter 5's reference answers (URLSessionTransport and the downloader)
# against servers nobody here wrote. Starts nginx from the system's packages and Python's
# http.server (which ignores Range) on free loopback ports, each serving files from a temporary
# folder, runs the Conformance suite of Tests/DownloadsTests against them, and stops both on exit.
# It installs nothing: a missing server fails here with the command that installs it, never passes.
#
#   nginx:        apt-get install -y nginx-light   (Debian/Ubuntu; gzip_static is in it)
#                 brew install nginx                (macOS)
#   python3:      any Python 3 (http.server is in its standard library)
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
NGINX=${NGINX:-$(command -v nginx || true)}
[ -n "$NGINX" ] || for candidate in /usr/sbin/nginx /opt/homebrew/bin/nginx /usr/local/bin/nginx; do
  [ -x "$candidate" ] && NGINX=$candidate && break
done
PYTHON=${PYTHON:-$(command -v python3 || true)}

fail() { echo "conformance: $*" >&2; exit 1; }
[ -n "$NGINX" ] && [ -x "$NGINX" ] ||
  fail "nginx not found: install it (Debian/Ubuntu: apt-get install -y nginx-light; macOS: brew install nginx) or set NGINX=/path/to/nginx"
[ -n "$PYTHON" ] || fail "python3 not found: install Python 3, whose http.server is the server without ranges"
"$NGINX" -V 2>&1 | grep -q -- '--with-http_gzip_static_module' ||
  fail "$NGINX was built without gzip_static (nginx -V does not list --with-http_gzip_static_module): install nginx-light or nginx"

work=$(mktemp -d "${TMPDIR:-/tmp}/workbook-conformance.XXXXXX")
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The files. Byte i of a .bin file is (i * 31 + 7) mod 256, the rule of the scripted transport
# and the practice server, so the three can be compared byte for byte.
mkdir -p "$work/www/static" "$work/www/always" "$work/www/weak" "$work/plain" "$work/logs" "$work/temp"
"$PYTHON" - "$work" <<'PY'
import gzip, sys
work = sys.argv[1]
def binary(size):
    pattern = bytes((i * 31 + 7) % 256 for i in range(256))
    return (pattern * (size // 256 + 1))[:size]
text = b"".join(b"line %07d of a text that compresses well\n" % i for i in range(25000))
files = {
    "www/big.bin": binary(2_000_000),
    "www/changing.bin": binary(1_500_000),
    "www/weak/weak.bin": binary(1_000_000),
    "www/text.txt": text,
    "www/static/static.txt": text,
    "plain/plain.bin": binary(1_000_000),
}
for name, data in files.items():
    with open(f"{work}/{name}", "wb") as f:
        f.write(data)
for name in ("www/static/static.txt.gz", "www/always/always.txt.gz"):
    with open(f"{work}/{name}", "wb") as f:
        f.write(gzip.compress(text, mtime=0))
PY
chmod -R a+rX "$work"

nginx_port=$(free_port)
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 64; }
http {
  access_log $work/logs/access.log;
  client_body_temp_path $work/temp/body;
  proxy_temp_path $work/temp/proxy;
  fastcgi_temp_path $work/temp/fastcgi;
  uwsgi_temp_path $work/temp/uwsgi;
  scgi_temp_path $work/temp/scgi;
  default_type application/octet-stream;
  types { text/plain txt; }
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/www;
    # Compression for a client that asks: text/plain on the fly, static/ precompressed.
    gzip on;
    gzip_min_length 0;
    gzip_types text/plain;
    location /static/ { gzip_static on; }
    # A precompressed file with no plain copy: coded whatever the request asked.
    location /always/ { gzip_static always; }
    # A weak ETag in place of nginx's strong one.
    location /weak/ { etag off; add_header ETag 'W/"weak-1"'; }
  }
}
CONF
"$NGINX" -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" -g 'daemon off;' &
pids+=($!)

plain_port=$(free_port)
"$PYTHON" -m http.server "$plain_port" --bind 127.0.0.1 --directory "$work/plain" >"$work/logs/plain.log" 2>&1 &
pids+=($!)

# Both must answer before the tests start; a server that died says why.
wait_for() {
  local name=$1 url=$2 pid=$3 log=$4
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "$name exited before answering"; }
    "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$log" >&2
  fail "$name did not answer $url within 10 s"
}
wait_for nginx "http://127.0.0.1:$nginx_port/big.bin" "${pids[0]}" "$work/logs/error.log"
wait_for http.server "http://127.0.0.1:$plain_port/plain.bin" "${pids[1]}" "$work/logs/plain.log"
echo "conformance: nginx ($("$NGINX" -v 2>&1 | sed 's/.*: //')) on 127.0.0.1:$nginx_port, http.server on 127.0.0.1:$plain_port"

scratch=.build/grade/ch5-answers
# The engine make was given (BUILD_SYSTEM=, passed on as WORKBOOK_BUILD_SYSTEM), else the toolchain's.
engine=(${WORKBOOK_BUILD_SYSTEM:+--build-system "$WORKBOOK_BUILD_SYSTEM"})
WORKBOOK_CHAPTERS=5 WORKBOOK_ANSWERS=5 Tools/swiftpm.sh "$SWIFT" build ${engine[@]+"${engine[@]}"} --build-tests --scratch-path "$scratch" -q 2>&1 | grep -v '^\[' || true
test "${PIPESTATUS[0]}" -eq 0 || fail "chapter 5's answers do not build"
log="$work/logs/tests.txt"
set +e
WORKBOOK_CHAPTERS=5 WORKBOOK_ANSWERS=5 \
  WORKBOOK_CONFORMANCE_NGINX="http://127.0.0.1:$nginx_port" WORKBOOK_CONFORMANCE_NGINX_ROOT="$work/www" \
  WORKBOOK_CONFORMANCE_PLAIN="http://127.0.0.1:$plain_port" \
  "$SWIFT" test ${engine[@]+"${engine[@]}"} --skip-build --scratch-path "$scratch" --filter 'DownloadsTests.ConformanceTests' >"$log" 2>&1
status=$?
set -e
grep -E '✘|Test run with|error:' "$log" || true
if [ "$status" -ne 0 ]; then
  echo "conformance: FAILED; nginx's error log ends:" >&2
  tail -5 "$work/logs/error.log" >&2
  echo "conformance: nginx's access log ends (request, status, body bytes):" >&2
  tail -10 "$work/logs/access.log" >&2
  exit 1
fi
# A pass means every test ran: a suite that was skipped or filtered out has shown nothing.
if grep -q 'skipped' "$log" || ! grep -qE 'Test run with [1-9][0-9]* tests? .*passed' "$log"; then
  tail -20 "$log" >&2
  fail "the conformance suite did not run (skipped, or no test matched the filter): nothing was shown"
fi
echo "conformance: passed against nginx and http.server"
