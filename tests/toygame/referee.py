"""High Card's referee (toy.md): an independent replay of a traced game from its events, the rules and the arm's
settings alone, as an auditor holding only the rulebook would. It imports nothing of the game's code (a referee
that shared the kernel's mistakes would check nothing). `analyzer check-game toy` and the conformance suite find
it here, as the module referee.py of the game's package (analyzer/conformance.py, referee_of)."""


def greedy(hand, best):
    """The rulebook's greedy card (toy.md): the lowest that beats the trick's best so far (leading, best 0: the
    highest), else the lowest."""
    if best == 0:
        return max(hand)
    return min((c for c in hand if c > best), default=min(hand))


def drama(standings, winner):
    """(lead_changes, decided_at, comeback, final_margin) from the tricks after each trick (0: the deal), as
    analyzer/games/drama.py defines them."""
    changes, last_leader, last_trailed, comeback = 0, -1, -1, 0
    for turn, st in enumerate(standings):
        top = max(st)
        if st.count(top) == 1:
            leader = st.index(top)
            changes += last_leader >= 0 and leader != last_leader
            last_leader = leader
        if winner is not None and st[winner] < top:
            last_trailed, comeback = turn, max(comeback, top - st[winner])
    length = len(standings) - 1
    if winner is None:
        return changes, length, 0, 0
    final = standings[-1]
    return changes, 0 if last_trailed < 0 else min(last_trailed + 1, length), comeback, \
        final[winner] - max(v for s, v in enumerate(final) if s != winner)


def referee(events, row, arm):
    """Replay a traced game of High Card by toy.md alone: the deal, every trick's order, each card in its
    player's hand (greedy's the greedy card), the trick's winner, the end, and the result row."""
    n, h, d = len(arm.seats), arm.rules["hand_size"], arm.rules["deck_size"]
    policies = [s.policy for s in arm.seats]
    avoid = [s.params.get("avoid", "none") for s in arm.seats]

    def may_play(seat, hand):
        """The cards of hand the seat may play: not of the kind it avoids, unless every card is."""
        kind = {"low": lambda c: 2 * c <= d, "high": lambda c: 2 * c > d}.get(avoid[seat])
        allowed = [c for c in hand if kind is None or not kind(c)]
        return allowed or list(hand)

    ev = iter(events)
    hands = []
    for s in range(n):
        e = next(ev)
        assert e["type"] == "deal" and e["seat"] == s and len(e["cards"]) == h, e
        hands.append(list(e["cards"]))
    dealt = [c for hand in hands for c in hand]
    assert len(set(dealt)) == n * h and all(1 <= c <= d for c in dealt), "not a deal of distinct cards 1..deck_size"
    tricks, leader, standings = [0] * n, 0, [[0] * n]
    for t in range(1, h + 1):
        assert next(ev) == {"type": "trick", "trick": t, "leader": leader}
        played = []
        for k in range(n):
            seat = (leader + k) % n
            e = next(ev)
            assert e["type"] == "play" and e["seat"] == seat and e["card"] in hands[seat], (e, hands[seat])
            if policies[seat] != "lookahead":
                assert e["card"] in may_play(seat, hands[seat]), (e, hands[seat], avoid[seat])
            if policies[seat] == "greedy":
                assert e["card"] == greedy(may_play(seat, hands[seat]), max(played, default=0)), \
                    (e, hands[seat], played)
            hands[seat].remove(e["card"])
            played.append(e["card"])
        leader = (leader + played.index(max(played))) % n
        assert next(ev) == {"type": "won", "seat": leader, "card": max(played)}
        tricks[leader] += 1
        standings.append(list(tricks))
    winners = [s for s in range(n) if tricks[s] == max(tricks)]
    end = "won" if len(winners) == 1 else "tie"
    assert next(ev) == {"type": "end", "end": end, "winners": winners, "tricks": tricks}
    assert next(ev, None) is None, "events after the end"
    expected = ([int(s in winners) for s in range(n)] + [len(winners), h, 0 if end == "won" else 1] + tricks
                + list(drama(standings, winners[0] if end == "won" else None)))
    # (the decision counts, base.Choices, come last: 0 unless the profile asked for them)
    assert [int(x) for x in row[:len(expected)]] == expected, (list(row), expected)
