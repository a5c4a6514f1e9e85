"""Shared fixtures. ``@pytest.mark.rule("ENGAGE-4")`` names the rule a test checks."""
