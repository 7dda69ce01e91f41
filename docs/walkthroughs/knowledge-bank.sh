#!/usr/bin/env bash
# Knowledge bank: categories → article → publish → translate → backlinks → history.
source "$(dirname "$0")/lib.sh"

# 1. Categories: a top level and one under it; the tree comes back flattened in display order, with
#    the workspace's other categories (the demo's among them) around these two.
CAT=$(api POST /knowledge-bank/categories -d '{"nameEn":"Orders","nameAr":"الطلبات"}' | json v.category.id)
SUB=$(api POST /knowledge-bank/categories -d "{\"nameEn\":\"Returns\",\"nameAr\":\"المرتجعات\",\"parentId\":\"$CAT\"}" | json v.category.id)
api GET /knowledge-bank/categories | json 'v.categories.filter((c) => ["'"$CAT"'", "'"$SUB"'"].includes(c.id)).map((c) => c.depth + " " + c.slug).join("\n")'
#> 1 orders
#> 2 returns

# 2. An article (a draft): English first, one block already in Arabic.
ART=$(api POST /knowledge-bank/articles -d "{\"categoryId\":\"$SUB\",\"titleEn\":\"Return an item\",\"titleAr\":\"إرجاع منتج\",
  \"blocks\":[{\"id\":\"when\",\"type\":\"paragraph\",\"text\":{\"en\":[{\"text\":\"Returns are possible within 14 days.\"}],\"ar\":[{\"text\":\"يمكن الإرجاع خلال 14 يومًا.\"}]}},
             {\"id\":\"how\",\"type\":\"callout\",\"tone\":\"info\",\"text\":{\"en\":[{\"text\":\"Open Orders, then Returns.\"}]}}]}" | json v.article.id)
api GET "/knowledge-bank/articles/$ART" | json 'v.article.slug + " " + JSON.stringify(v.article.translations)'
#> return-an-item {"en":"complete","ar":"partial"}

# 3. Publish: revision 1 goes live. A read-only key now sees it (and only the live content).
api POST "/knowledge-bank/articles/$ART/publish" | json 'v.article.status + " r" + v.article.liveRevision'
#> published r1
READER=$(cxctl key create --workspace "$WORKSPACE" --scopes knowledge-bank:read --json | json v.key)
KEY=$READER api GET "/knowledge-bank/articles/$ART" | json v.article.view
#> live

# 4. Translate: write the callout's Arabic, and edit the first block's English only (If-Match required).
ETAG=$(api GET "/knowledge-bank/articles/$ART" -i | header etag)
api PUT "/knowledge-bank/articles/$ART/draft" -H "If-Match: $ETAG" -d '{"titleEn":"Return an item","titleAr":"إرجاع منتج",
  "blocks":[{"id":"when","type":"paragraph","text":{"en":[{"text":"Returns are possible within 30 days."}],"ar":[{"text":"يمكن الإرجاع خلال 14 يومًا."}]}},
            {"id":"how","type":"callout","tone":"info","text":{"en":[{"text":"Open Orders, then Returns."}],"ar":[{"text":"افتح الطلبات ثم المرتجعات."}]}}]}' \
  | json 'v.article.blocks.map((b) => b.id + " " + b.translation).join("\n") + "\n" + JSON.stringify(v.article.translations)'
#> when outdated
#> how complete
#> {"en":"complete","ar":"outdated"}
api GET "/knowledge-bank/translations?locale=ar&status=outdated" | json 'v.articles.map((a) => a.slug)'
#> [ 'return-an-item' ]
# Readers keep revision 1 until the draft is published:
KEY=$READER api GET "/knowledge-bank/articles/$ART" | json 'v.article.blocks[0].text.en[0].text'
#> Returns are possible within 14 days.

# 5. Backlinks: a second article links to the first; publish it and ask who links here.
FAQ=$(api POST /knowledge-bank/articles -d "{\"categoryId\":\"$CAT\",\"titleEn\":\"Orders FAQ\",
  \"blocks\":[{\"type\":\"faq\",\"question\":{\"en\":[{\"text\":\"Can I send an item back?\"}]},
              \"answer\":{\"en\":[{\"text\":\"Yes: \"},{\"text\":\"return an item\",\"link\":{\"articleId\":\"$ART\"}}]}}]}" | json v.article.id)
api POST "/knowledge-bank/articles/$FAQ/publish" > /dev/null
api GET "/knowledge-bank/articles/$ART/backlinks" | json 'JSON.stringify(v.backlinks.map((b) => ({ ...b, articleId: b.articleId === "'"$FAQ"'" ? "<FAQ id>" : b.articleId })))'
#> [{"articleId":"<FAQ id>","views":["live","draft"]}]
api DELETE "/knowledge-bank/articles/$ART" | json v.error
#> article_linked

# 6. History: publish the edit (revision 2), then restore revision 1 into the draft.
api POST "/knowledge-bank/articles/$ART/publish" > /dev/null
api GET "/knowledge-bank/articles/$ART/revisions" | json 'v.revisions.map((r) => r.revision + " " + r.publishedAt).join("\n")'
#> 2 …
#> 1 …
api POST "/knowledge-bank/articles/$ART/revisions/1/restore" | json 'v.article.hasUnpublishedChanges + " " + v.article.blocks[0].text.en[0].text'
#> true Returns are possible within 14 days.

# 7. Tidy up, so the walkthrough runs again with the same slugs: the FAQ first (it links to the
#    article), then the article, then the categories, each empty by then (-f: a refusal stops the script).
for article in "$FAQ" "$ART"; do api DELETE "/knowledge-bank/articles/$article" -f > /dev/null; done
for category in "$SUB" "$CAT"; do api DELETE "/knowledge-bank/categories/$category" -f > /dev/null; done
