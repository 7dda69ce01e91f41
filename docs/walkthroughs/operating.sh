#!/usr/bin/env bash
# The operator's lifecycle in the sandbox: what a restore relies on, derived data rebuilt, and a
# tenant offboarded (its data handed over, then deleted). It makes its own tenant to offboard.
source "$(dirname "$0")/lib.sh"

# 1. What a restore and a redeploy rely on (the whole report: cxctl backup verify).
cxctl backup verify | grep 'when the stack is deleted'
#>   ✓ table when the stack is deleted: retained
#>   ✓ signing secret when the stack is deleted: retained
#>   ✓ bucket KnowledgeBankSearchIndexBucket when the stack is deleted: emptied and deleted
#>   ✓ bucket SurveyExportBucket when the stack is deleted: emptied and deleted

# A tenant with a published article and a survey with a response.
TENANT="leaving-$(node -p 'Date.now().toString(36)')"
cxctl workspace create "$TENANT" > /dev/null
export WORKSPACE_HOST="$TENANT.localhost"
KEY=$(cxctl key create --workspace "$TENANT" --all --json | json v.key)
CAT=$(api POST /knowledge-bank/categories -d '{"nameEn":"Account"}' | json v.category.id)
ART=$(api POST /knowledge-bank/articles -d '{"categoryId":"'"$CAT"'","titleEn":"Close your account","blocks":[{"type":"paragraph",
  "text":{"en":[{"text":"Export your data first, then ask us to close the account."}]}}]}' | json v.article.id)
api POST "/knowledge-bank/articles/$ART/publish" | json v.article.status
#> published
api POST /surveys -d '{"name":"Exit survey","language":"en"}' > "$WORK/survey.json"
S=$(json v.survey.id < "$WORK/survey.json")
V=$(json v.version.id < "$WORK/survey.json")
api PUT "/surveys/$S/versions/$V" -H 'If-Match: "1"' -d @"$ROOT/docs/walkthroughs/onboarding-survey.json" > /dev/null
api POST "/surveys/$S/publish" -d "{\"versionId\":\"$V\"}" > /dev/null
api POST "/surveys/$S/responses" -d '{"answers":{"plan":"pro","score":9},"respondent":{"email":"ana@example.com"}}' | json v.response.status
#> finished

# 2. Derived data made again from the table, any time (after a restore or a redeploy, or when the
#    fan-out's failure queue holds a batch of responses): idempotent, resumable.
cxctl rebuild search --workspace "$TENANT"
#> leaving-…: index rebuilt, 1 article(s), … bytes, … ms
cxctl rebuild summaries --workspace "$TENANT" 2> "$WORK/progress.txt"
#> leaving-… survey …: 1 response(s), 0 removal(s) replayed, … bucket transaction(s); equal to a recount of its responses

# 3. Everything of the tenant for them, as NDJSON (format: docs/operating.md); no secret in it.
cxctl workspace export "$TENANT" --out "$WORK/export.ndjson" 2> "$WORK/progress.txt"
#> Exported … record(s) of leaving-… to …/export.ndjson (… bytes): …
#> Left out, rebuilt from those records or gone within a day: …
head -n 1 "$WORK/export.ndjson" | json '`${v.format} version ${v.version}`'
#> cx-portal-workspace-export version 1
grep '"type":"surveyResponse"' "$WORK/export.ndjson" | json 'v.data.respondentEmail'
#> ana@example.com

# 4. Delete it: only once suspended, and only with its slug repeated.
cxctl workspace delete "$TENANT" --confirm "$TENANT" 2>&1 || true
#> cxctl: Workspace "leaving-…" is active: suspend it first (cxctl workspace suspend leaving-…), then delete it
cxctl workspace suspend "$TENANT"
#> Workspace leaving-… is suspended
cxctl workspace delete "$TENANT" --confirm "$TENANT" --settle 1 2> "$WORK/progress.txt"
#> Deleted workspace leaving-…: … item(s) (…), … search index object(s), 0 export file(s); 0 webhook(s) stopped, 0 queued delivery(ies) dropped.
#> The slug leaving-… can be created again.
api GET /me | json v.error
#> invalid_key
