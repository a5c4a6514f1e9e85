"""The enemies' side of a battle (ENEMY-*): an enemy's turn (``turn``),
whom it attacks and where it moves (``targeting``), enemy turns as a log
records them (``activations``), the draw bags of enemy chips (``bags``),
and why an enemy did what it did (``explain``), in words
(``enemies.explain_text``), for `rk why`."""
