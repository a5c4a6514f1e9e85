"""Items in battle (ITEM-*, READY-*; betrayal.md §B14 to §B18): using a
ready item (``use``), the damage items prevent (``wards``), how item events
change a battle (``evolve``) and how they read (``narrate``). They register
at the core's hook points (``battle.hooks``)."""
