#!/usr/bin/env bash
# Surveys: create, a design, questions with routing, simulate, publish, change, breaking changes.
source "$(dirname "$0")/lib.sh"

# 1. Create: a draft survey, its first draft version (no questions yet), and the workspace's designs,
#    the default first (the first survey of a workspace makes it; new surveys use it).
api POST /surveys -d '{"name":"Onboarding","language":"en"}' > "$WORK/survey.json"
S=$(json v.survey.id < "$WORK/survey.json")
V1=$(json v.version.id < "$WORK/survey.json")
json '[v.survey.status, v.version.number, v.version.revision, v.version.issues.map((i) => i.code), v.designs[0].name].join(" ")' < "$WORK/survey.json"
#> draft 1 1 no_questions Default

# 2. A design of your own, and the survey uses it
DESIGN=$(api POST /surveys/designs \
  -d '{"name":"Brand","primaryColor":"#0B5FFF","backgroundColor":"#FFFFFF","logoUrl":"https://cdn.example.com/logo.png"}' | json v.design.id)
api PATCH "/surveys/$S" -d "{\"designId\":\"$DESIGN\"}" | json "v.survey.designId === '$DESIGN'"
#> true

# 3. Questions with routing: team customers jump to their own ending, the improvement question only
#    shows to low scores, and `favourite` offers only the channels chosen before. Saving a draft needs
#    If-Match with the revision you read; the answer has the new revision (ETag "2") and fresh issues.
#    The definition: onboarding-survey.json, beside this script.
api PUT "/surveys/$S/versions/$V1" -H 'If-Match: "1"' -d @"$ROOT/docs/walkthroughs/onboarding-survey.json" | json 'JSON.stringify(v.version.issues)'
#> [{"severity":"warning","code":"option_filter_may_empty","message":"favourite is required but its option filter can leave it no options, and then it is skipped","path":"/questions/2/optionFilter"}]

# 4. Simulate a respondent: the path, what was skipped, the options offered, the ending, problems
api POST "/surveys/$S/versions/$V1/simulate" -d '{"answers":{"plan":"pro","channels":["mail"],"favourite":"mail","score":4}}' \
  | json 'JSON.stringify(v.run)'
#> {"path":["plan","channels","favourite","score","why"],"skipped":[],"options":{"plan":["free","pro","team"],"channels":["chat","mail"],"favourite":["mail"]},"ending":"thanks","problems":[]}

# 5. Publish it (a version with errors is refused with 400 invalid_definition, listing them)
api POST "/surveys/$S/publish" -d "{\"versionId\":\"$V1\"}" | json v.survey.status
#> published

# 6. Change it: a new draft copied from the published version (published versions never change),
#    then remove the "team" option and its route, and save (If-Match "1": the new draft's revision)
V2=$(api POST "/surveys/$S/versions" -d '{}' | json v.version.id)
json '(v.definition.questions[0].options.pop(), (v.definition.questions[0].routes = []), JSON.stringify(v))' < "$ROOT/docs/walkthroughs/onboarding-survey.json" > "$WORK/definition2.json"
api PUT "/surveys/$S/versions/$V2" -H 'If-Match: "1"' -d @"$WORK/definition2.json" | json v.version.revision
#> 2

# 7. Publishing it warns first: answers already collected for "team" would no longer match
api POST "/surveys/$S/publish" -d "{\"versionId\":\"$V2\"}" | json '`${v.error} ${JSON.stringify(v.changes)}`'
#> breaking_changes [{"kind":"option_removed","questionId":"plan","optionId":"team","detail":"option team was removed; answers that chose it would no longer match the survey"}]
api POST "/surveys/$S/publish" -d "{\"versionId\":\"$V2\",\"acknowledgeBreakingChanges\":true}" | json 'v.survey.publishedVersionId === v.version.id'
#> true

# v2 is published, v1 superseded. POST /surveys/{id}/close stops collecting, publishing again reopens,
# DELETE /surveys/{id} archives (read-only, out of the list, versions kept).
api GET "/surveys/$S" | json 'v.versions.map((x) => `${x.number} ${x.status}`).join("\n")'
#> 2 published
#> 1 superseded
