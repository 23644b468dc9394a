"""Bring the Noize: the settings that cannot change any game under the others (Game.idle), read off the
kernels (engine.py, actions.py)."""


def idle(rules, seats, n_players):
    out = []
    if rules["finish_cards"] == rules["start_cards"] + 1:
        # the first challenge's loser reaches the finish count; the house rule shuffles from round 2 on (_open_round)
        out.append(("rules.shuffle_each_round", "with finish_cards = start_cards + 1 the first challenge ends the "
                                                "game, before any round the house rule would shuffle for"))
    for s, seat in enumerate(seats):
        if seat.policy != "threshold":
            continue
        p = seat.params
        if p["bluff"] == 0:  # max_jump sizes a jump bluff only (bluff_or_plain)
            out.append((f"seats.{s}.max_jump", "with bluff = 0 it never bluffs, so it never jumps"))
        if p["challenge_below"] == 1:
            # every bid short of certain is challenged first (threshold_move); a certain one leaves
            # 1 - P(holds) = 0, which no raise's chance is below
            out.append((f"seats.{s}.compare_raise", "with challenge_below = 1 it challenges every bid that is not "
                                                    "certain, and never a certain one"))
    return out
