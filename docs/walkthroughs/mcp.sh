#!/usr/bin/env bash
# MCP: the tools an AI agent gets, listed and called with the MCP Inspector's command line (an MCP
# client over the same Streamable HTTP as Claude's or VS Code's), and what they did, read through REST.
source "$(dirname "$0")/lib.sh"
# The Inspector keeps its settings in MCP_STORAGE_DIR (default ~/.mcp-inspector): here, the temporary folder.
export MCP_STORAGE_DIR=$WORK/inspector

# mcp [Inspector options…]: one MCP request to this API's server as $KEY (KEY=… mcp … as another key)
mcp() {
  npx --no-install @modelcontextprotocol/inspector --cli "$BASE/mcp" --transport http \
    --header "Authorization: Bearer $KEY" --header "X-Service-Workspace-Host: $WORKSPACE_HOST" "$@"
}

# 1. The tools a key with every permission may use: the API's reads and safe writes, nothing that deletes
mcp --method tools/list 2> /dev/null > "$WORK/tools.json"
json '["list_ideas", "create_idea", "delete_idea"].map((name) => `${name} ${v.tools.some((t) => t.name === name)}`).join(", ")' < "$WORK/tools.json"
#> list_ideas true, create_idea true, delete_idea false

# 2. File an idea: the request body goes in `body`; the result is the API's answer, with the record's etag
cxctl labels add "$WORKSPACE" --statuses new > /dev/null   # the status it files with, if missing; the workspace's own labels kept (as ideas.sh)
mcp --method tools/call --tool-name create_idea --tool-arg 'body={"title":"Dark mode","status":"new"}' > "$WORK/created.json"
IDEA=$(json v.structuredContent.data.id < "$WORK/created.json")
json '`${v.structuredContent.data.title}: ${v.structuredContent.data.status}, etag ${v.structuredContent.etag}`' < "$WORK/created.json"
#> Dark mode: new, etag "1"
# It went through the API under the same key: it is there through REST
api GET "/ideas/$IDEA" | json 'v.data.title'
#> Dark mode

# 3. A key that may only read (keys are read-only unless created with more) is offered the reads alone
READER=$(cxctl key create --workspace "$WORKSPACE" --json | json v.key)
KEY=$READER mcp --method tools/list 2> /dev/null | json '["list_ideas", "create_idea"].map((name) => `${name} ${v.tools.some((t) => t.name === name)}`).join(", ")'
#> list_ideas true, create_idea false

# 4. A refusal is a tool error with the API's own code and message (the Inspector exits 5 on one)
mcp --method tools/call --tool-name get_idea --tool-arg id=no-such-idea 2> /dev/null > "$WORK/refused.json" || echo "exit $?"
#> exit 5
json '`${v.structuredContent.error}: ${v.structuredContent.message}`' < "$WORK/refused.json"
#> not_found: No idea with this id in this workspace
