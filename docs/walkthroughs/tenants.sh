#!/usr/bin/env bash
# Tenants in the sandbox: a workspace's request budget, shared by all its keys, and what the workspace
# used and cost, as it reads it itself (GET /usage) and as the operator does (cxctl usage). It makes
# its own tenant, so it never limits yours.
source "$(dirname "$0")/lib.sh"

TENANT="tenant-$(node -p 'Date.now().toString(36)')"
cxctl workspace create "$TENANT" > /dev/null
export WORKSPACE_HOST="$TENANT.localhost"
# usage:read is in no key's defaults: what a workspace costs is given on purpose.
KEY=$(cxctl key create --workspace "$TENANT" --scopes ideas:read,usage:read --json | json v.key)
OTHER=$(cxctl key create --workspace "$TENANT" --json | json v.key)

# 1. A budget of 1 request a second with bursts of 10 (so a window of 10 s), across all its keys.
cxctl workspace set-limit "$TENANT" --requests-per-second 1 --burst 10
#> Workspace tenant-…: at most 1/s, bursts of 10 across all its keys, from its next request
cxctl workspace list | grep "^$TENANT "
#> tenant-…  active     disabled: none  limit: 1/s, bursts of 10  tenant-….localhost

# 2. Twelve requests at once through two keys: ten pass, two find the budget spent (each key's own
#    limit, 600 a minute, is far from it). Nothing runs for them, and they say when to come back.
KEYS=("$KEY" "$OTHER")
for i in $(seq 12); do
  KEY=${KEYS[i % 2]} api GET /ideas -o /dev/null -w '%{http_code}\n' &
done > "$WORK/statuses.txt"
wait
sort "$WORK/statuses.txt" | uniq -c | awk '{ print $2 " × " $1 }'
#> 200 × 10
#> 429 × 2
api GET /ideas -i > "$WORK/refused.txt"
head -n 1 "$WORK/refused.txt" | tr -d '\r'
#> HTTP/1.1 429 Too Many Requests
header retry-after < "$WORK/refused.txt"
#> …
tail -n 1 "$WORK/refused.txt" | json v.error
#> workspace_rate_limited

# Back to the plan's default (1,000 a second unless the stack sets another).
cxctl workspace set-limit "$TENANT" --default
#> Workspace tenant-…: requests limited by the plan default

# 3. What the workspace used, as it reads it: every request whose key was verified, refused or not,
#    by operation and status class, with DynamoDB's own units and the cost at the unit prices.
api GET /usage > "$WORK/usage.json"
json '`${v.usage.totals.requests} requests, listIdeas ${JSON.stringify(v.usage.operations.listIdeas.byStatusClass)}`' < "$WORK/usage.json"
#> 13 requests, listIdeas {"2xx":10,"3xx":0,"4xx":3,"5xx":0}
json '`${v.usage.totals.capacityUnits.read} read units, ${v.usage.totals.capacityUnits.write} write units: $${v.usage.totals.estimatedCostUsd}`' < "$WORK/usage.json"
#> … read units, … write units: $…

# 4. The same, as the operator reads it from the table; and every workspace, the costliest first, as CSV.
cxctl usage "$TENANT" | grep listIdeas
#>   listIdeas …13  (2xx 10, 4xx 3)
cxctl usage --all --csv | grep "^$TENANT,total,"
#> tenant-…,total,…
