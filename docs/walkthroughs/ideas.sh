#!/usr/bin/env bash
# Ideas: labels, submit, list, read, change with If-Match, delete.
source "$(dirname "$0")/lib.sh"

# The statuses and modules this workspace accepts. An operator sets them with cxctl; these are the
# ones `npm start` and `cxctl demo` give a workspace (one made with `cxctl workspace create` has none).
# `labels add` adds those missing and keeps the rest (`labels set` replaces them).
cxctl labels add "$WORKSPACE" --statuses new,under_review,planned,in_progress,done,declined --modules general,billing,mobile-app,website > /dev/null
api GET /ideas/labels | json 'JSON.stringify(v.data)'
#> {"statuses":["new","under_review","planned","in_progress","done","declined"],"modules":["general","billing","mobile-app","website"]}

# Submit an idea: 201, private and pending moderation, version 1 (ETag: "1")
IDEA=$(api POST /ideas -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \
  -d '{"title":"Dark mode","status":"new","module":"mobile-app","submitter":{"email":"ann@example.com"}}' | json v.data.id)

# List, newest first: {ok, data:[…], pagination}. The first is the idea just submitted; `total` counts
# every idea of the workspace (1 in a new one, 7 with the demo data).
api GET "/ideas?limit=10&offset=0" | json '`${v.data[0].title} ${v.data[0].moderationStatus} ${v.data[0].visibility}\n${JSON.stringify(v.pagination)}`'
#> Dark mode pending private
#> {"limit":10,"offset":0,"total":…,"hasMore":false,"nextCursor":null}

# Read one (-i shows its ETag), then change it only if nobody else did in between
api GET "/ideas/$IDEA" -i | header etag
#> "1"
api PATCH "/ideas/$IDEA" -H 'If-Match: "1"' -d '{"status":"planned"}' | json '`${v.data.status} v${v.data.version}`'
#> planned v2
api PATCH "/ideas/$IDEA" -H 'If-Match: "1"' -d '{"status":"done"}' | json v.error
#> version_conflict
api PUT "/ideas/$IDEA" -H 'If-Match: "2"' \
  -d '{"title":"Dark mode everywhere","description":"Web and mobile","status":"planned","module":"website"}' | json '`${v.data.title} v${v.data.version}`'
#> Dark mode everywhere v3

# Delete it
api DELETE "/ideas/$IDEA" -H 'If-Match: "3"'; echo
#> {"ok":true}
