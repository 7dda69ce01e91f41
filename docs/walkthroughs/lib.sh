# Shared by every walkthrough in this folder: `source` it, then call the API with `api`.
#
#   BASE            the API's base URL                     default http://127.0.0.1:3000/api/v1 (npm start)
#   WORKSPACE       the workspace's slug                   default your-workspace
#   WORKSPACE_HOST  sent as X-Service-Workspace-Host       default $WORKSPACE.localhost
#   KEY             a Developer key with every permission  required: what `npm start` or `cxctl demo` printed, or
#                   KEY=$(npx cxctl key create --workspace your-workspace --all --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')
#   DATA_DIR, or DYNAMODB_PORT, SQS_PORT and TABLE_NAME      where cxctl finds the sandbox: set them as you did for
#                   `npm start`, like BASE (cxctl reads its ports from DATA_DIR/sandbox.json, default .data)
#   POLL_SECONDS    how long `poll` waits                  default 60
#
# A walkthrough prints the same in a new workspace, in one holding the demo data (`cxctl demo`) and when
# run again: it prints only what it made and changes nothing it did not make (sops.sh makes a workspace of
# its own for that; the knowledge-bank ones delete what they made, whose slugs would change on a second
# run). It writes files only into $WORK, a temporary folder removed when it ends, and stops at the first
# command that fails. Lines `#> …` after a command are what it prints (`…` stands for ids, ETags, times
# and counts of what the workspace held before); test/integration/walkthroughs.test.ts runs every
# walkthrough in a new workspace and twice in the demo's, and holds it to them.
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:3000/api/v1}
WORKSPACE=${WORKSPACE:-your-workspace}
WORKSPACE_HOST=${WORKSPACE_HOST:-$WORKSPACE.localhost}
: "${KEY:?Set KEY to a Developer key with every permission: npx cxctl key create --workspace your-workspace --all}"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The project's own Node (24, the Lambda runtime's), as for every npm script, not whatever `node` the shell has.
PATH="$ROOT/node_modules/.bin:$PATH"
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
# When EXPR cannot be read from it (most often an error answer), it says so with the answer, and fails.
json() {
  node -e '
    let s = "";
    process.stdin.on("data", (d) => (s += d)).on("end", () => {
      try {
        console.log(new Function("v", `return (${process.argv[1]})`)(JSON.parse(s)));
      } catch (error) {
        console.error(`✖ json ${process.argv[1]}: ${error.message}, in:\n${s.slice(0, 2000)}`);
        process.exit(1);
      }
    });' "$1"
}

# header NAME: reads a response printed with -i from stdin and prints that header's value.
header() {
  tr -d '\r' | sed -n "s/^$1: //Ip" | head -n 1
}

# poll PATH EXPR VALUE: GETs PATH once a second until `json EXPR` of the answer prints VALUE (the stream's
# consumers take seconds), and prints that answer. After POLL_SECONDS it says what it waited for and fails.
poll() {
  local path=$1 expr=$2 value=$3 body
  for _ in $(seq "${POLL_SECONDS:-60}"); do
    body=$(api GET "$path")
    [ "$(json "$expr" <<< "$body" 2> /dev/null)" = "$value" ] && printf '%s\n' "$body" && return 0
    sleep 1
  done
  echo "✖ poll: after ${POLL_SECONDS:-60} s, $expr of GET $path is still not $value; the last answer: ${body:0:2000}" >&2
  return 1
}

# cxctl …: the operator CLI, as `npx cxctl …` without npm's start-up (it finds the sandbox as npm start left it, above).
cxctl() {
  node "$ROOT/bin/cxctl.mjs" "$@"
}
