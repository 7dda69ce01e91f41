#!/usr/bin/env bash
# Similar ideas: ask before you submit, and see possible duplicates when you do.
source "$(dirname "$0")/lib.sh"

# An idea with an Arabic title beside its English one
FIRST=$(api POST /ideas -d '{"title":"Export shipping labels in bulk","titleAr":"تصدير ملصقات الشحن دفعة واحدة"}' | json v.data.id)

# The ideas most like a text, best first: in other words, or in Arabic (the alef and the article as you like)
api GET "/ideas/similar?q=bulk%20export%20of%20a%20shipping%20label&limit=3" | json '`${v.data[0].idea.title} ${v.data[0].matchedTerms}`'
#> Export shipping labels in bulk bulk,export,shipping,label
api GET "/ideas/similar?q=$(node -p 'encodeURIComponent("ملصق الشحن")')" | json 'v.data[0].idea.title'
#> Export shipping labels in bulk

# Submitting a like idea answers it with its possible duplicates (up to three, score above 0.3)
SECOND=$(api POST /ideas -d '{"title":"Shipping labels: export them in bulk"}')
echo "$SECOND" | json 'v.possibleDuplicates[0].idea.title'
#> Export shipping labels in bulk

# Clean up
api DELETE "/ideas/$FIRST" > /dev/null
api DELETE "/ideas/$(echo "$SECOND" | json v.data.id)" > /dev/null
