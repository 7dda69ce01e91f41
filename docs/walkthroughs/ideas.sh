#!/usr/bin/env bash
# Ideas: labels, submit, list, read, change with If-Match, delete; votes, comments, merge and unmerge, sorting, erasure.
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

# Votes on behalf of customers: each customer counts once. A voter is named by `externalId` or `email`;
# answers name them only by `voterRef`, an opaque reference that is the same for their votes and comments.
ORIG=$(api POST /ideas -d '{"title":"Offline mode","status":"new","module":"mobile-app"}' | json v.data.id)
DUP=$(api POST /ideas -d '{"title":"Work without a connection","status":"new","module":"mobile-app"}' | json v.data.id)
api POST "/ideas/$ORIG/votes" -d '{"voter":{"email":"ann@example.com"},"importance":"critical"}' -o /dev/null -w '%{http_code}\n'
#> 201
# The same customer again: 200, the same vote with what they say now, still one voter
api POST "/ideas/$ORIG/votes" -d '{"voter":{"email":"ANN@example.com"},"importance":"important","note":"Field teams lose signal"}' -i > "$WORK/vote.txt"
head -n 1 "$WORK/vote.txt" | tr -d '\r'
#> HTTP/1.1 200 OK
sed -n '/^\r$/,$p' "$WORK/vote.txt" | json '`${v.vote.importance}, version ${v.vote.version}, voterRef ${v.vote.voterRef.length} characters`'
#> important, version 2, voterRef 22 characters
for who in bo cy; do api POST "/ideas/$DUP/votes" -d '{"voter":{"email":"'$who'@example.com"}}' > /dev/null; done
api POST "/ideas/$DUP/votes" -d '{"voter":{"email":"ann@example.com"}}' > /dev/null
api GET "/ideas/$ORIG" | json '`${v.data.voteCount} voter: ${JSON.stringify(v.data.importance)}`'
#> 1 voter: {"nice":0,"important":1,"critical":0}

# Comments, public (the default) or internal; the author shows as authorName and authorRef, never their e-mail
api POST "/ideas/$DUP/comments" -d '{"body":"We need it on trains","author":{"email":"bo@example.com","name":"Bo"}}' \
  | json '`${v.comment.authorName}: ${v.comment.body} (${v.comment.visibility})`'
#> Bo: We need it on trains (public)

# Merge the duplicate into the original (If-Match: the duplicate's ETag). The original counts every voter
# of both once (ann voted on both), lists the duplicate's comments, and the duplicate leaves the lists.
api POST "/ideas/$DUP/merge" -H 'If-Match: "1"' -d '{"into":"'$ORIG'"}' \
  | json '`duplicate merged: ${v.data.mergedInto === "'$ORIG'"}; the original counts ${v.target.voteCount} voters`'
#> duplicate merged: true; the original counts 3 voters
api GET "/ideas/$ORIG/comments" | json 'v.comments.map((c) => `${c.body}, written on the duplicate: ${c.ideaId === "'$DUP'"}`).join("\n")'
#> We need it on trains, written on the duplicate: true
api GET "/ideas?limit=100" | json '`duplicate listed: ${v.data.some((i) => i.id === "'$DUP'")}`'
#> duplicate listed: false

# Most voted first: the table stream keeps the order, about a second behind the votes (this walkthrough's
# ideas only; a workspace with the demo data has its own ideas around them)
LOW=$(api POST /ideas -d '{"title":"Offline maps","status":"new","module":"mobile-app"}' | json v.data.id)
poll "/ideas?sort=-votes&limit=100" 'v.data.findIndex((i) => i.id === "'$ORIG'") < v.data.findIndex((i) => i.id === "'$LOW'")' true \
  | json 'v.data.filter((i) => ["'$ORIG'", "'$LOW'"].includes(i.id)).map((i) => `${i.title}: ${i.voteCount}`).join("\n")'
#> Offline mode: 3
#> Offline maps: 0

# A status change people hear about: idea.status_changed carries the message and the voter count
api PATCH "/ideas/$ORIG" -d '{"status":"planned","statusMessage":"Planned for the spring release"}' \
  | json '`${v.data.status}: ${v.data.statusMessage}`'
#> planned: Planned for the spring release

# Undo the merge exactly: the duplicate is back with its own voters, the original with its one
api POST "/ideas/$DUP/unmerge" -H 'If-Match: "2"' | json '`duplicate ${v.data.voteCount} voters, original ${v.target.voteCount}`'
#> duplicate 3 voters, original 1

# Erase a customer everywhere (votes, comments, survey responses, submitted ideas): counts stay exact
api POST /people/erase -d '{"email":"bo@example.com"}' | json 'JSON.stringify(v.erased)'
#> {"surveyResponses":0,"ideaVotes":1,"ideaComments":1,"ideas":0}
api GET "/ideas/$DUP" | json '`duplicate ${v.data.voteCount} voters`'
#> duplicate 2 voters

for id in "$ORIG" "$DUP" "$LOW"; do api DELETE "/ideas/$id" > /dev/null; done
