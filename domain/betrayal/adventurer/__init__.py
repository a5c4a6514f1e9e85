"""The Adventurer aggregate, which lives for a campaign (``aggregate``):
what an adventurer carries between battles (``state``), the events of its
stream (``events``), its mat (``mat``), its items between battles
(``inventory``) and the Reward Phase's advancements (``advancement``)."""
