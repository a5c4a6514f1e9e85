"""rulekeeper's HTTP server: a table for a group (DESIGN: Server).

An ASGI application over the same application layer as the CLI
(``domain.kernel.games.GameApp``), with no rules of its own:

- ``app``: the routes, JSON in and out (msgspec-typed, ``wire``), and the
  table view's page;
- ``passes``: seats, host and spectators, each known by a secret token;
- ``tables``: the store work, on worker threads, one application each;
- ``workers``: those threads, in two lanes (commands and reads of a game
  as it stands; whole logs), each call answered by its deadline;
- ``streaming``: a whole log (export, full narrated log) sent a page at a time;
- ``throttle``: how often one token may read a whole log (429 past it);
- ``store_down``: a store away or silent, said in one line (503);
- ``refusals``: every error as the CLI's rule ID and reason, with its status;
- ``live``: the change feed that tells viewers of every process a game moved;
- ``views``: a game as the table view draws it, per ruleset;
- ``openapi``: the OpenAPI document, made from the route table;
- ``run``: ``rk server``: start, print the links, stop cleanly;
- ``port_memory``: the port kept across restarts, so links stay good
  (``home_files``: the home's small files, written and trusted privately);
- ``connections``: bounds on silent, idle and too many connections;
- ``log_throttle``: a repeated log line said once per interval, with a count.
"""
