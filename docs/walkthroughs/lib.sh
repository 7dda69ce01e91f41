# Shared by every walkthrough in this folder: `source` it, then call the API with `api`.
#
#   BASE            the API's base URL                     default http://127.0.0.1:3000/api/v1 (npm start)
#   WORKSPACE       the workspace's slug                   default your-workspace
#   WORKSPACE_HOST  sent as X-Service-Workspace-Host       default $WORKSPACE.localhost
#   KEY             a Developer key with every permission  required: what `npm start` printed, or
#                   KEY=$(npx cxctl key create --workspace your-workspace --all --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')
#
# A walkthrough writes files only into $WORK, a temporary folder removed when it ends, and stops at
# the first command that fails. Lines `#> …` after a command are what it prints (`…` stands for
# ids, ETags and times); test/integration/walkthroughs.test.ts runs every walkthrough and holds it to them.
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:3000/api/v1}
WORKSPACE=${WORKSPACE:-your-workspace}
WORKSPACE_HOST=${WORKSPACE_HOST:-$WORKSPACE.localhost}
: "${KEY:?Set KEY to a Developer key with every permission: npx cxctl key create --workspace your-workspace --all}"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# api METHOD PATH [curl options…]: one request to the workspace as $KEY (KEY=… api … for another key),
# JSON in and out; prints the body (add -i for the status line and headers too).
api() {
  local method=$1 path=$2
  shift 2
  curl -sS -X "$method" "$BASE$path" -H "X-Service-Workspace-Host: $WORKSPACE_HOST" \
    -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"
}

# json EXPR: reads JSON from stdin as `v` and prints EXPR (a string as is, anything else as node shows it).
json() {
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(new Function("v", `return (${process.argv[1]})`)(JSON.parse(s))))' "$1"
}

# header NAME: reads a response printed with -i from stdin and prints that header's value.
header() {
  tr -d '\r' | sed -n "s/^$1: //Ip" | head -n 1
}

# poll PATH EXPR VALUE: GETs PATH once a second until `json EXPR` of the answer prints VALUE, at most a
# minute (the stream's consumers take seconds), and prints that last answer.
poll() {
  local path=$1 expr=$2 value=$3 body
  for _ in $(seq 60); do
    body=$(api GET "$path")
    [ "$(json "$expr" <<< "$body")" = "$value" ] && break
    sleep 1
  done
  printf '%s\n' "$body"
}

# cxctl …: the operator CLI, as `npx cxctl …` without npm's start-up.
cxctl() {
  node "$ROOT/bin/cxctl.mjs" "$@"
}
