"""Benchmarks of rulekeeper's costs, each against a floor measured in the
same run (see bench/README.md; run ``python -m bench.run``)."""
