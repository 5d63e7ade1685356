"""Online tables as services, one concern per module.

The engine side:
  ``bridge``        the one module that drives the rules engine: a table's deal loaded from its
                    log and saved (``Live``, ``load``, ``save``), the next deal's setup, one
                    automatic step (a draw, a bot's call or move), a seat's move applied, a played
                    deal as a score sheet row, the engine's views and the replay of a finished deal
  ``cache``         rebuilt deals kept per process by deal and version (the log is the truth)
  ``botchoice``     which engine bot plays a bot seat (easy, normal, strong)
  ``climbing_game`` 争上游's adapter: the bridge hands it the climbing deals (setups, replay,
                    bots, moves, the sheet row, views)
  ``hundred_game``  打百分's adapter, the same offer for hundred-4p, forty-4p and hundred-3p

Playing:
  ``advance``       the game running by itself after every change: draws and bots until a human
                    must act, finished deals recorded on the score sheet, the next deal dealt
  ``moves``         a seat's requests: its move on the state it saw, "ready" after a deal
  ``between_deals`` a played deal's summary and the wait for every seat's Continue
  ``takeback``      take-backs (悔牌) asked and answered
  ``clock``         the seconds per move; a seat out of time has its bot make that move
  ``tokens``        state tokens (what a page saw: polls, streams, stale moves) and idle seats

The director and the seats:
  ``director``      switch a table online, bots per seat, pause, call time
  ``rounds``        a whole round online at once, bots carried by player; ``run-bots``' start
  ``autoplay``      ``flask tournament run-bots``: bots at every seat to the match's end
  ``seats``         seat links, seats bound to members
  ``guards``        pair again, forfeit or paper never lose a game unconfirmed
  ``chat``          the table's chat

What the pages show:
  ``pages``         a seat's, the director's and the spectators' pages and the replays
  ``deal_view``     the trick on the felt with its winner so far; what a seat may call and why not
  ``climbing_pages`` 争上游's seat, spectator and replay pages from the engine's views
  ``hundred_pages`` 打百分's: the auction, trump, the friend card, the dummy, the end of a deal
  ``seat_json``     a seat's page as JSON for programs
  ``cards``, ``throws``, ``refusals``  card faces, failed throws, engine refusals in words
"""
