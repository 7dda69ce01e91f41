#!/usr/bin/env bash
# Knowledge-bank search and link checking: publish an article, search it in English and Arabic,
# check its external link.
source "$(dirname "$0")/lib.sh"

# An article to find, published, in English and Arabic, with an external link. The link points at a
# page that answers 404: here the sandbox itself, so the walkthrough needs no network. It is the demo's
# "Reset your password" again, in a category of its own: the searches below keep to that category
# (`categoryId`), so they find this copy alone, whatever else the workspace holds.
GONE="${BASE%/api/v1}/gone"
CAT=$(api POST /knowledge-bank/categories -d '{"nameEn":"Account","nameAr":"الحساب"}' | json v.category.id)
ART=$(api POST /knowledge-bank/articles -d '{"categoryId":"'"$CAT"'","titleEn":"Reset your password","titleAr":"إعادة تعيين كلمة المرور",
  "summaryEn":"Get back into your account when you forget your password.","summaryAr":"استعد حسابك عندما تنسى كَلِمَةَ المُرُور.",
  "blocks":[{"id":"steps","type":"paragraph","text":{
      "en":[{"text":"Open the sign-in page and choose \"Forgot password\". We email you a link that is valid for 30 minutes."}],
      "ar":[{"text":"افتح صفحة الدخول واختر «نسيت كلمة المرور». نرسل إليك رابطًا صالحًا لمدة 30 دقيقة."}]}},
    {"id":"help","type":"paragraph","text":{
      "en":[{"text":"No email? See "},{"text":"our status page","link":{"href":"'"$GONE"'"}}],
      "ar":[{"text":"لم يصلك البريد؟ راجع "},{"text":"صفحة الحالة","link":{"href":"'"$GONE"'"}}]}}]}' | json v.article.id)
api POST "/knowledge-bank/articles/$ART/publish" | json v.article.status
#> published

# Every word must match; the last one may be unfinished; "pasword" finds "password". A published
# article is searchable within seconds (the index builder follows the table stream).
poll "/knowledge-bank/search?q=reset%20pasword&limit=5&categoryId=$CAT" v.total 1 > "$WORK/results.json"
json 'v.results.map(({ articleId, categoryId, score, slug, ...r }) => JSON.stringify(r)).join("\n") + "\ntotal " + v.total' < "$WORK/results.json"
#> {"title":"Reset your password","snippet":{"text":"Get back into your account when you forget your password. Open the sign-in page and choose \"Forgot password\". We email you a link that is valid for 30 minutes. No email? See our…","highlights":[[48,56],[99,107]]}}
#> total 1

# Arabic typed without diacritics finds text written with them; titles come back in Arabic
api GET "/knowledge-bank/search?q=$(node -p 'encodeURIComponent("كلمه المرور")')&locale=ar&categoryId=$CAT" | json 'v.results.map((r) => r.title).join("\n")'
#> إعادة تعيين كلمة المرور

# External links: check now (202, every link of the workspace), then read what the checker found for this one
api POST /knowledge-bank/links/check -o /dev/null -w '%{http_code}\n'
#> 202
poll "/knowledge-bank/links?status=broken" 'v.links.some((l) => l.url === "'"$GONE"'")' true > "$WORK/links.json"
json 'v.links.filter((l) => l.url === "'"$GONE"'").map((l) => ["<the link>", l.status, l.httpStatus, String(l.redirectTo),
  ...l.articles.map((id) => (id === "'"$ART"'" ? "<the article>" : id))].join(" ")).join("\n")' < "$WORK/links.json"
#> <the link> broken 404 null <the article>

# Tidy up, so that searching your workspace finds the demo's article alone again (-f: a refusal stops the script)
api DELETE "/knowledge-bank/articles/$ART" -f > /dev/null
api DELETE "/knowledge-bank/categories/$CAT" -f > /dev/null
