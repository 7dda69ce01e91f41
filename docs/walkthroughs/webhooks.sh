#!/usr/bin/env bash
# Webhooks: create, a local receiver, enable (verification), idea events, deliveries, redeliver, a
# test event, disable (what it misses is held), enable and recover, rotate, change, delete.
source "$(dirname "$0")/lib.sh"
RECEIVER_PORT=${RECEIVER_PORT:-4001}   # not 4000, where the demo's webhook sends: its receiver may be running

# 1. Create the webhook: 201 (Location: /api/v1/webhooks/<id>), disabled, with its secret shown this once
#    (store it). With an Idempotency-Key a retry creates nothing and answers with that webhook and its
#    current secret (the secret is never copied into the remembered response).
api POST /webhooks -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \
  -d '{"name":"My receiver","url":"http://127.0.0.1:'"$RECEIVER_PORT"'/hook","events":["idea.submitted","idea.status_changed","idea.updated","idea.deleted"]}' \
  > "$WORK/webhook.json"
HOOK=$(json v.webhook.id < "$WORK/webhook.json")
SECRET=$(json v.webhook.secret < "$WORK/webhook.json")
json '`enabled ${v.webhook.enabled}, secret ${v.webhook.secret.slice(0, 6)}…`' < "$WORK/webhook.json"
#> enabled false, secret whsec_…

# 2. A receiver that prints each delivery, checks its Bearer token and signature, and answers 401 to
#    one that fails either: `WEBHOOK_SECRET=whsec_… npm run webhook-receiver` in another terminal, or
#    as here in the background, stopped when the walkthrough ends (start it again with the new secret
#    after a rotate). RECEIVER_STATUS=500 makes it fail verified deliveries, to watch the retries.
(cd "$ROOT" && WEBHOOK_SECRET=$SECRET RECEIVER_PORT=$RECEIVER_PORT exec node --import tsx scripts/webhook-receiver.ts) > "$WORK/receiver.log" 2>&1 &
RECEIVER=$!
trap 'kill $RECEIVER 2> /dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 150); do grep -q '^Webhook receiver on' "$WORK/receiver.log" && break; sleep 0.2; done
grep -q '^Webhook receiver on' "$WORK/receiver.log" || { cat "$WORK/receiver.log" >&2; exit 1; }

# 3. Enable it: a signed webhook.verification event goes to the receiver first; only a 2xx enables it
api POST "/webhooks/$HOOK/enable" | json '`enabled ${v.webhook.enabled}`'
#> enabled true

# 4. Change ideas and watch the receiver: idea.submitted, then idea.status_changed new → planned
cxctl labels add "$WORKSPACE" --statuses new,under_review,planned,in_progress,done,declined --modules general,billing,mobile-app,website > /dev/null   # as ideas.sh
IDEA=$(api POST /ideas -d '{"title":"Dark mode","status":"new"}' | json v.data.id)
api PATCH "/ideas/$IDEA" -d '{"status":"planned"}' > /dev/null

# 5. What happened to each event, newest first (limit/offset pages), once both are delivered
poll "/webhooks/$HOOK/deliveries" 'v.deliveries.filter((d) => d.outcome === "delivered").length' 2 > "$WORK/deliveries.json"
json 'v.deliveries.map((d) => `${d.eventType} ${d.outcome} attempt ${d.attempt} → ${d.responseStatus}`).join("\n")' < "$WORK/deliveries.json"
#> idea.status_changed delivered attempt 1 → 204
#> idea.submitted delivered attempt 1 → 204
# The receiver printed each one (the verification first), with its body on the next line:
grep -o 'POST /hook .*' "$WORK/receiver.log"
#> POST /hook webhook-id=… bearer ok, signature ok → 204
#> POST /hook webhook-id=… bearer ok, signature ok → 204
#> POST /hook webhook-id=… bearer ok, signature ok → 204

# 6. Send one again (same webhook-id), and a signed test event (it shows in the log like any delivery)
DELIVERY=$(json 'v.deliveries[0].id' < "$WORK/deliveries.json")
api POST "/webhooks/$HOOK/deliveries/$DELIVERY/redeliver" -o /dev/null -w '%{http_code}\n'
#> 202
api POST "/webhooks/$HOOK/test" | json '`${v.delivery.eventType} ${v.delivery.outcome}`'
#> webhook.test pending

# 7. Disable it: nothing is sent, and nothing is dropped. What it misses is held (no attempt made),
#    kept 30 days, and the workspace's other webhooks subscribed to webhook.disabled hear of it.
api POST "/webhooks/$HOOK/disable" > "$WORK/disabled.json"
json '`enabled ${v.webhook.enabled}, reason ${v.webhook.disabledReason.code}`' < "$WORK/disabled.json"
#> enabled false, reason manual
SINCE=$(json v.webhook.disabledReason.since < "$WORK/disabled.json")
api PATCH "/ideas/$IDEA" -d '{"status":"in_progress"}' > /dev/null
poll "/webhooks/$HOOK/deliveries?status=held" 'v.deliveries.length' 1 | json 'v.deliveries.map((d) => `${d.eventType} ${d.outcome}, ${d.attempt} attempts`).join("\n")'
#> idea.status_changed held, 0 attempts

# 8. Enable it again, then recover what it missed since it was disabled: a job (202, Location) that sends
#    every held, failed or cancelled delivery of the window once each, one at a time in event order.
api POST "/webhooks/$HOOK/enable" | json '`enabled ${v.webhook.enabled}`'
#> enabled true
api POST "/webhooks/$HOOK/recover" -i -d '{"since":"'"$SINCE"'"}' > "$WORK/recover.txt"
RECOVERY=$(header Location < "$WORK/recover.txt")
poll "${RECOVERY#/api/v1}" v.recovery.status done | json '`${v.recovery.status}: queued ${v.recovery.queued}, delivered ${v.recovery.delivered}, failed ${v.recovery.failed}`'
#> done: queued 1, delivered 1, failed 0
# Each delivery says which recovery sent it last:
api GET "/webhooks/$HOOK/deliveries" | json 'v.deliveries.filter((d) => d.recoveryId === "'"${RECOVERY##*/}"'").map((d) => `${d.eventType} ${d.outcome}, attempt ${d.attempt} → ${d.responseStatus}`).join("\n")'
#> idea.status_changed delivered, attempt 1 → 204

# 9. Rotate the secret, change it or delete it
# A new secret; the webhook is disabled until enabled again (restart the receiver with it, then enable)
api POST "/webhooks/$HOOK/rotate" | json '`enabled ${v.webhook.enabled}, secret ${v.webhook.secret === "'"$SECRET"'" ? "unchanged" : "new"}, reason ${v.webhook.disabledReason.code}`'
#> enabled false, secret new, reason rotated
api PATCH "/webhooks/$HOOK" -d '{"events":["idea.deleted"],"maxDeliveriesPerSecond":10}' | json '`${v.webhook.events}, at most ${v.webhook.maxDeliveriesPerSecond} a second`'
#> idea.deleted, at most 10 a second
api DELETE "/webhooks/$HOOK"; echo
#> {"ok":true}
api DELETE "/ideas/$IDEA" -f > /dev/null   # the idea was only there to make events
