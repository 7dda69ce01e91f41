#!/usr/bin/env bash
# Journey metrics from surveys: a survey with responses, a journey stage showing its NPS, the map as a picture.
source "$(dirname "$0")/lib.sh"

# A macro journey and its first draft (see journeys.sh)
api POST /journeys -d '{"titleEn":"Opening an account","titleAr":"فتح حساب"}' > "$WORK/journey.json"
J=$(json v.journeyId < "$WORK/journey.json")
D=$(json v.version.id < "$WORK/journey.json")

# 1. A survey with an NPS question, published
api POST /surveys -d '{"name":"After sign-up"}' > "$WORK/survey.json"
S=$(json v.survey.id < "$WORK/survey.json")
SV=$(json v.version.id < "$WORK/survey.json")
api PUT "/surveys/$S/versions/$SV" -H 'If-Match: "1"' -d '{"definition":{"languages":["en"],
  "questions":[{"id":"score","type":"nps","headline":{"en":"How likely are you to recommend us?"},"required":true}],
  "endings":[{"id":"thanks","headline":{"en":"Thank you!"}}]}}' > /dev/null
api POST "/surveys/$S/publish" -d "{\"versionId\":\"$SV\"}" | json v.survey.status
#> published

# 2. Some responses (the summary's aggregator counts them from the table stream within seconds)
for n in 10 9 9 7 3; do
  api POST "/surveys/$S/responses" -d "{\"answers\":{\"score\":$n}}" > /dev/null
done

# 3. Bind a journey stage's metric cell to the question (the save reports any wrong binding in diagnostics)
api PUT "/journeys/$J/versions/$D/content" -H 'If-Match: "1"' -d "{\"content\":{
  \"schema\":1,
  \"stages\":[{\"id\":\"sign-up\",\"titleEn\":\"Sign up\",\"titleAr\":\"التسجيل\",\"microJourneyPairs\":[]}],
  \"rows\":[{\"id\":\"nps\",\"type\":\"metric\",\"titleEn\":\"NPS\",\"titleAr\":\"صافي نقاط الترويج\"}],
  \"cells\":{\"nps:sign-up\":{\"source\":{\"surveyId\":\"$S\",\"questionId\":\"score\",\"measure\":\"nps\"},\"target\":30}}}}" \
  | json 'JSON.stringify(v.version.diagnostics)'
#> []

# 4. The stage's NPS over the last 90 days, with its margin and weekly trend (once all 5 are counted)
poll "/journeys/$J/versions/$D/metrics?interval=week" 'v.metrics[0].n' 5 > "$WORK/metrics.json"
json 'v.metrics.map(({ series, ...m }) => JSON.stringify(m) + "\n" + JSON.stringify(series.at(-1)))[0]' < "$WORK/metrics.json"
#> {"cellKey":"nps:sign-up","stageId":"sign-up","measure":"nps","value":40,"n":5,"marginOfError95":78.4,"target":30,"meetsTarget":true}
#> {"start":"…","value":40,"n":5}

# 5. The map, with the NPS badge (green: target met), in English and in Arabic
api GET "/journeys/$J/versions/$D/map.svg" -o "$WORK/map.svg" -w '%{http_code} %{content_type}\n'
#> 200 image/svg+xml; charset=utf-8
api GET "/journeys/$J/versions/$D/map.svg?locale=ar" -o "$WORK/map-ar.svg" -w '%{http_code} %{content_type}\n'
#> 200 image/svg+xml; charset=utf-8
