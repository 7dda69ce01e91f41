#!/usr/bin/env bash
# Survey responses: submit, continue, finish, list, change feed; the summary and an export; erasure.
source "$(dirname "$0")/lib.sh"

# The survey of the Surveys walkthrough (surveys.sh), published.
api POST /surveys -d '{"name":"Onboarding","language":"en"}' > "$WORK/survey.json"
S=$(json v.survey.id < "$WORK/survey.json")
V1=$(json v.version.id < "$WORK/survey.json")
api PUT "/surveys/$S/versions/$V1" -H 'If-Match: "1"' -d @"$ROOT/docs/walkthroughs/onboarding-survey.json" > /dev/null
api POST "/surveys/$S/publish" -d "{\"versionId\":\"$V1\"}" > /dev/null

# 1. A respondent starts: a partial response (finished:false), pinned to the version published now.
#    -i shows the status, the ETag (the response's revision) and Location. Safe to retry with an Idempotency-Key.
api POST "/surveys/$S/responses" -i -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \
  -d '{"answers":{"plan":"pro"},"finished":false,"language":"en",
       "respondent":{"externalId":"crm-1042","email":"rania@example.com"},"meta":{"channel":"in-app"}}' > "$WORK/start.txt"
head -n 1 "$WORK/start.txt" | tr -d '\r'
#> HTTP/1.1 201 Created
header etag < "$WORK/start.txt"
#> "1"
R=$(tail -n 1 "$WORK/start.txt" | json v.response.id)
tail -n 1 "$WORK/start.txt" | json '[v.response.status, JSON.stringify(v.response.answers), v.response.path, String(v.response.ending), v.response.versionId === "'$V1'"].join(" ")'
#> partial {"plan":"pro"} plan,channels null true

# 2. An answer the respondent could not give is refused, each problem at /answers/<questionId>
api POST "/surveys/$S/responses" -d '{"answers":{"plan":"team","score":"excellent"}}' | json '`${v.error} ${JSON.stringify(v.issues)}`'
#> invalid_answers [{"severity":"error","code":"answer_not_shown","message":"score is never shown on this path, so its answer is ignored","path":"/answers/score"}]

# 3. Continue: merge answers (null removes one), If-Match with the ETag you hold
api PATCH "/surveys/$S/responses/$R" -H 'If-Match: "1"' -d '{"answers":{"channels":["mail"]}}' \
  | json '`revision ${v.response.revision} path ${v.response.path}`'
#> revision 2 path plan,channels,favourite

# 4. Finish: every required question on the path answered, an ending reached; then it never changes
api PATCH "/surveys/$S/responses/$R" -H 'If-Match: "2"' -d '{"answers":{"favourite":"mail","score":4,"why":"Faster replies"},"finished":true}' \
  | json '[v.response.status, v.response.ending, typeof v.response.finishedAt, typeof v.response.secondsToFinish].join(" ")'
#> finished thanks string number

# A second respondent starts, and stops after the first question.
api POST "/surveys/$S/responses" -d '{"answers":{"plan":"free"},"finished":false}' > /dev/null

# 5. List: newest first, filters versionId, status (partial|finished), respondent (an externalId)
api GET "/surveys/$S/responses?status=finished&limit=10" | json 'v.responses.map((r) => r.id === "'$R'") + " " + JSON.stringify(v.pagination)'
#> true {"limit":10,"offset":0,"total":1,"hasMore":false,"nextCursor":null}

# 6. Change feed for a warehouse: everything changed after a time, oldest first; pass the last
#    entry's updatedAt (minus a few seconds) next time, and walk pages with nextCursor
SINCE=$(node -p 'new Date(Date.now() - 3600_000).toISOString()')
api GET "/surveys/$S/responses?updatedSince=$SINCE" | json 'v.responses.map((r) => `${r.status} revision ${r.revision}`).join("\n")'
#> finished revision 3
#> partial revision 1

# 7. The summary: counts, completion, time to finish, and per question shown/answered/dropped off,
#    option counts, score distributions, NPS/CSAT/CES with 95 % margins of error. `surveys:read` is enough:
#    no answer text and no respondent in it. Default: the published version, every day. The aggregator
#    counts responses from the table stream within seconds.
TODAY=$(date -u +%F)
poll "/surveys/$S/summary?from=$TODAY&to=$TODAY" 'v.summary.responses.started' 2 > "$WORK/summary.json"
json 'JSON.stringify(v.summary.responses)' < "$WORK/summary.json"
#> {"started":2,"finished":1,"completionRate":0.5,"secondsToFinish":{"p50":…,"p90":…}}
json 'v.summary.questions.map((q) => `${q.questionId} shown ${q.shown} answered ${q.answered} droppedOff ${q.droppedOff}`).join("\n")' < "$WORK/summary.json"
#> plan shown 2 answered 2 droppedOff 0
#> channels shown 2 answered 1 droppedOff 1
#> favourite shown 1 answered 1 droppedOff 0
#> score shown 1 answered 1 droppedOff 0
#> why shown 1 answered 1 droppedOff 0
json 'JSON.stringify(v.summary.questions[0].options)' < "$WORK/summary.json"
#> [{"optionId":"free","count":1},{"optionId":"pro","count":1},{"optionId":"team","count":0}]
json 'JSON.stringify(v.summary.questions[3].nps)' < "$WORK/summary.json"
#> {"promoters":0,"passives":0,"detractors":1,"score":-100,"marginOfError95":null}
# ?versionId=all joins every version (a question by its id, where its type and scale did not change).

# 8. Export the responses (needs survey-responses:read): 202 at once, Location to poll
api POST "/surveys/$S/exports" -i -d '{"format":"csv","labels":"en"}' > "$WORK/export.txt"
head -n 1 "$WORK/export.txt" | tr -d '\r'
#> HTTP/1.1 202 Accepted
LOCATION=$(header location < "$WORK/export.txt")
echo "$LOCATION"
#> /api/v1/surveys/…/exports/…
poll "${LOCATION#/api/v1}" v.export.status done > "$WORK/export.json"
json '`${v.export.status} ${v.export.rows} rows`' < "$WORK/export.json"
#> done 2 rows
# The file: a presigned S3 GET, valid 15 minutes; read the export again for a new one
curl -sS -o "$WORK/responses.csv" "$(json v.export.downloadUrl < "$WORK/export.json")"
head -n 1 "$WORK/responses.csv" | sed 's/^\xEF\xBB\xBF//' | tr -d '\r'
#> responseId,versionId,status,language,createdAt,finishedAt,secondsToFinish,ending,plan,channels,favourite,score,why

# 9. Right to erasure: every response of one respondent, across the workspace's surveys (DELETE
#    /surveys/{id}/responses/{responseId} removes one). The feed then shows a tombstone.
api POST /surveys/responses/erase -d '{"email":"rania@example.com"}'; echo
#> {"ok":true,"erased":1,"hasMore":false}
api GET "/surveys/$S/responses?updatedSince=$SINCE" | json 'v.responses.map((r) => r.deleted ? `deleted ${r.id === "'$R'"}` : r.status).join("\n")'
#> partial
#> deleted true
