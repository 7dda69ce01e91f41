#!/usr/bin/env bash
# Ideas: labels, submit, list, read, change with If-Match, delete.
source "$(dirname "$0")/lib.sh"

# The statuses and modules this workspace accepts. An operator sets them with cxctl; these are the
# ones `npm start` gives your-workspace (a workspace made with `cxctl workspace create` has none).
cxctl labels set "$WORKSPACE" --statuses new,under_review,planned,in_progress,done,declined --modules general,billing,mobile-app,website > /dev/null
api GET /ideas/labels | json 'JSON.stringify(v.data)'
#> {"statuses":["new","under_review","planned","in_progress","done","declined"],"modules":["general","billing","mobile-app","website"]}

# Submit an idea: 201, private and pending moderation, version 1 (ETag: "1")
IDEA=$(api POST /ideas -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \
  -d '{"title":"Dark mode","status":"new","module":"mobile-app","submitter":{"email":"ann@example.com"}}' | json v.data.id)

# List, newest first: {ok, data:[…], pagination:{limit, offset, total, hasMore}}
api GET "/ideas?limit=10&offset=0" | json 'v.data.map((i) => `${i.title} ${i.moderationStatus} ${i.visibility}`).join("\n") + "\n" + JSON.stringify(v.pagination)'
#> Dark mode pending private
#> {"limit":10,"offset":0,"total":1,"hasMore":false,"nextCursor":null}

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
