"""What the table sees, declared for the adapters (the package's
``surface`` hands these over): the battles' surface (``battle_surface``)
and the campaign's (``campaign_surface``); the setups' builders
(``new_game``, ``campaign_setup``) and what their parameters are at the
table (``kinds``, ``party``); listings of the pack and of campaigns
(``listings``, ``campaign_listings``), `rk why` (``why``), an adventurer's
sheet (``adventurer_sheet``); the views of a battle (``views``,
``view_map``, ``view_tables``, ``view_delve``, ``board_view``) and of a
campaign (``campaign_views``); the demo (``demo``)."""
