#!/usr/bin/env bash
# SOPs: the directory, three keys, draft → review → send back → edit → review → publish.
source "$(dirname "$0")/lib.sh"

# This walkthrough makes a workspace of its own (and leaves it; `cxctl workspace list` shows it): a
# directory import replaces a workspace's whole SOP directory, marking whoever its file does not list
# inactive, and department serials count every SOP of a team. In your workspace it would undo your
# directory (or the demo's) and print other serials.
WORKSPACE=sops-walkthrough-$(node -p 'crypto.randomBytes(4).toString("hex")')
WORKSPACE_HOST=$(cxctl workspace create "$WORKSPACE" --json | json v.host)

# 1. The directory SOPs reference: one person, one team.
echo '{"people": [{"name": "Amal Haddad", "email": "amal@example.com", "active": true}],
       "teams": [{"name": "Customer Care", "active": true}]}' > "$WORK/directory.json"
cxctl directory import "$WORKSPACE" --file "$WORK/directory.json"
#> Imported 1 people and 1 teams; 0 entries no longer listed were marked inactive

# 2. Three keys: an author, a reviewer and a read-only reader.
AUTHOR=$(cxctl key create --workspace "$WORKSPACE" --scopes sops:read,sops:write --name author --json | json v.key)
REVIEWER=$(cxctl key create --workspace "$WORKSPACE" --scopes sops:read,sops:approve --name reviewer --json | json v.key)
READER=$(cxctl key create --workspace "$WORKSPACE" --scopes sops:read --name reader --json | json v.key)

KEY=$AUTHOR api GET /sops/directory; echo
#> {"ok":true,"people":[{"id":"…","name":"Amal Haddad","email":"amal@example.com","active":true,"sourceUserId":null}],"teams":[{"id":"…","name":"Customer Care","active":true,"sourceDepartmentId":null}]}
TEAM=$(KEY=$AUTHOR api GET /sops/directory | json 'v.teams.find((t) => t.active).id')
AMAL=$(KEY=$AUTHOR api GET /sops/directory | json 'v.people.find((p) => p.active).id')

# 3. Create: a draft, serial 1 of Customer Care.
BODY='{"titleEn": "Refund above the limit", "type": "complaint", "departmentId": "'$TEAM'",
       "steps": [{"titleEn": "Check the order"}, {"titleEn": "Call the customer"}],
       "escalationLevel1": "'$AMAL'", "escalationLevel2": "role:finance-director"}'
SOP=$(KEY=$AUTHOR api POST /sops -d "$BODY" | json v.sop.id)

# 4. Submit for review. The author cannot approve: that needs sops:approve.
KEY=$AUTHOR api POST "/sops/$SOP/submit" | json v.sop.status
#> under_review
KEY=$AUTHOR api POST "/sops/$SOP/approve"; echo
#> {"ok":false,"error":"missing_permission","message":"The Developer key lacks the permission sops:approve"}

# 5. The reviewer sends it back with feedback; the author reads it as a review comment.
KEY=$REVIEWER api POST "/sops/$SOP/send-back" -d '{"feedback": "Say who may approve refunds above 500 SAR."}' | json v.sop.status
#> draft
KEY=$AUTHOR api GET "/sops/$SOP" | json 'JSON.stringify(v.comments)'
#> [{"id":"…","kind":"send_back","feedback":"Say who may approve refunds above 500 SAR.","createdAt":"…","createdBy":"…"}]

# 6. Edit (PUT replaces the whole content) and submit again.
BODY='{"titleEn": "Refund above the limit", "type": "complaint", "departmentId": "'$TEAM'",
       "steps": [{"titleEn": "Check the order"}, {"titleEn": "Above 500 SAR: ask the team lead"}, {"titleEn": "Call the customer"}],
       "escalationLevel1": "'$AMAL'", "escalationLevel2": "role:finance-director"}'
KEY=$AUTHOR api PUT "/sops/$SOP" -d "$BODY" | json v.sop.status
#> draft
KEY=$AUTHOR api POST "/sops/$SOP/submit" | json v.sop.status
#> under_review

# 7. Until it is approved, the read-only key cannot see it.
KEY=$READER api GET "/sops/$SOP"; echo
#> {"ok":false,"error":"not_found","message":"No SOP with this id exists in this workspace"}

# 8. Approve: published, and visible to every key with sops:read (without the review comments).
KEY=$REVIEWER api POST "/sops/$SOP/approve" | json '[v.sop.status, v.sop.serial, v.sop.approvedBy.length > 0].join(" ")'
#> published 1 true
KEY=$READER api GET /sops | json 'v.sops.map((s) => `${s.serial} ${s.status} ${s.titleEn}`).join("\n")'
#> 1 published Refund above the limit
KEY=$READER api GET "/sops/$SOP" | json 'JSON.stringify(v.comments)'
#> []
