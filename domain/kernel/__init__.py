"""What every ruleset shares: message bases, errors, seeded dice, hex geometry,
and the event-store plumbing."""
