"""The campaign between battles, a second ruleset of the package: its
state, events and evolve (``game``), its commands (``commands``) and rules
(``rules``), the session-end EP table (``session_ep``), the campaign as the
kernel sees it (``ruleset``), its verbs on the kernel's application
(``application``), what a player may leave out of a command
(``defaults``) and one line per event (``narrate``)."""
