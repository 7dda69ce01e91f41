#!/usr/bin/env bash
# Journeys: create, edit with diagnostics, publish, branch, diff, micro journeys, archive.
source "$(dirname "$0")/lib.sh"

# 1. Create a macro journey: {ok, journeyId, version}: its first draft, "Draft 1", revision 1, empty content
api POST /journeys -d '{"titleEn":"Opening an account","titleAr":"فتح حساب"}' > "$WORK/journey.json"
J=$(json v.journeyId < "$WORK/journey.json")
V=$(json v.version.id < "$WORK/journey.json")
json '`${v.version.label} r${v.version.revision}`' < "$WORK/journey.json"
#> Draft 1 r1

# 2. Edit: PUT the whole content with If-Match = the revision you read. The answer carries fresh
#    diagnostics (here a warning: the "buy" stage has no Arabic title) and ETag "2".
api PUT "/journeys/$J/versions/$V/content" -H 'If-Match: "1"' -d '{"content":{
  "schema":1,
  "stages":[{"id":"discover","titleEn":"Discover","titleAr":"اكتشاف","microJourneyPairs":[]},
            {"id":"buy","titleEn":"Buy","microJourneyPairs":[]}],
  "rows":[{"id":"feel","type":"emotion","titleEn":"Feeling","titleAr":"شعور"},
          {"id":"pains","type":"items","kind":"pain","titleEn":"Pain points","titleAr":"نقاط الألم"}],
  "cells":{"feel:discover":{"score":1},"feel:buy":{"score":-2},
           "pains:buy":{"items":[{"id":"p1","textEn":"Too many forms","textAr":"نماذج كثيرة"}]}}}}' \
  | json 'JSON.stringify(v.version.diagnostics)'
#> [{"severity":"warning","code":"missing_translation","message":"titleEn is given but titleAr is missing","path":"/stages/1/titleAr"}]

# 3. Publish it (If-Match required): {ok, version:{…publishedAt}, journey:{…publishedVersionId}}
api POST "/journeys/$J/versions/$V/publish" -H 'If-Match: "2"' | json 'v.journey.publishedVersionId === v.version.id'
#> true

# 4. Branch a new draft from the published version, and edit it (move "buy" first, drop the pains row)
D=$(api POST "/journeys/$J/versions" -d "{\"fromVersionId\":\"$V\",\"label\":\"Simpler sign-up\"}" | json v.version.id)
api PUT "/journeys/$J/versions/$D/content" -H 'If-Match: "1"' -d '{"content":{
  "schema":1,
  "stages":[{"id":"buy","titleEn":"Buy","titleAr":"شراء","microJourneyPairs":[]},
            {"id":"discover","titleEn":"Discover","titleAr":"اكتشاف","microJourneyPairs":[]}],
  "rows":[{"id":"feel","type":"emotion","titleEn":"Feeling","titleAr":"شعور"}],
  "cells":{"feel:discover":{"score":1},"feel:buy":{"score":1}}}}' > /dev/null

# 5. Diff the draft against the published version
api GET "/journeys/$J/versions/$D/diff?against=$V" | json 'JSON.stringify(v.diff)'
#> {"stages":{"added":[],"removed":[],"renamed":["buy"],"moved":["buy"]},"rows":{"added":[],"removed":["pains"],"renamed":[],"moved":[],"retyped":[]},"cells":{"added":[],"removed":["pains:buy"],"changed":["feel:buy"]},"pairs":{"added":[],"removed":[],"changed":[]}}

# Zoom into a stage with a micro journey; once published, pair it to the stage in a draft's content:
#   "microJourneyPairs":[{"journeyId":"<micro id>"}]  (follows its published version; add "versionId" to pin one)
MICRO=$(api POST "/journeys/$J/micro-journeys" -d '{"titleEn":"Sign-up","stageId":"buy"}' | json v.journeyId)
api GET "/journeys/$MICRO" | json '`${v.journey.kind} ${v.journey.stageId}`'
#> micro buy

# Everything else: list (?kind=macro|micro, newest first: the one just made), read, rename, versions
# (with content), dry-run diagnostics, archive
api GET "/journeys?kind=macro&limit=1" | json '`${v.journeys[0].id === "'"$J"'"} ${v.journeys[0].titleEn}`'
#> true Opening an account
api GET "/journeys/$J/versions?limit=5" | json 'v.versions.map((x) => x.label).join("\n")'
#> Simpler sign-up
#> Draft 1
api POST /journeys/validate -d '{"content":{"schema":1,"stages":[],"rows":[],"cells":{}}}' | json 'JSON.stringify(v.diagnostics)'
#> []

# Archive the journey (journeys:delete): still readable, out of the list
api DELETE "/journeys/$J"; echo
#> {"ok":true}
api GET "/journeys/$J" | json 'v.journey.archivedAt !== null'
#> true
api DELETE "/journeys/$MICRO" -f > /dev/null   # a micro journey is archived on its own, not with its macro journey
