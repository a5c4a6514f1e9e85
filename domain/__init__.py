"""rulekeeper's domain: the rules of each ruleset, their aggregates, and the
application that serves them."""
