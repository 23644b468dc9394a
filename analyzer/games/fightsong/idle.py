"""Fight Song: the settings that cannot change any game under the others (Game.idle), read off the kernel
(engine.play_hand, play_opportunities, check_end; policies.decide, choose_battle).

The bound on points (docs/fightsong.md, "Settings with no effect"): round points come only from regular hands,
in which a team makes at most 2 plays (partners with 4 players, two cards each with 2; 1 play with 3) of at
most the best score a Game Play card of the deck makes on an Activity corner (3 at most). A game lasts at most
max_hands hands, so a team's round points R are at most R_max = plays x best x max_hands. Extra points come one
per Fight Song round won, and a team starts a round only for an opportunity (its round points crossing a
multiple of fs_step): at most R // fs_step of them. So no total above R_max + R_max // fs_step is ever reached.
"""
from analyzer.games.fightsong.rules import deck_of, plays_per_hand, score_table


def best_play(rules):
    """The most points one play of a regular hand can score with the deck of these rules."""
    deck = deck_of(rules)
    held = [k for k, c in enumerate(deck.kind_copies) if c > 0]
    return int(score_table(deck)[:deck.n_act][:, :, held].max())


def most_points(rules, n_players):
    """(per hand, most round points, most total): a team's most round points in one regular hand and in a game,
    and the most total (round + extra) points it can have at the end of any game (see the module docstring)."""
    per_hand = best_play(rules) * (2 if n_players == 4 else plays_per_hand(n_players))  # a team's plays
    rounds = per_hand * rules["max_hands"]
    return per_hand, rounds, rounds + rounds // rules["fs_step"]


def idle(rules, seats, n_players):
    out = []
    per_hand, rounds, total = most_points(rules, n_players)
    target = rules["target"]
    if target > total:
        out.append(("rules.target", f"no game can reach it, nor any target above {total:,} (a team scores at most "
                                    f"{per_hand} round points a hand, so at most {total:,} points, extra points "
                                    f"included, in max_hands = {rules['max_hands']:,} hands): every game ends as a "
                                    f"stall"))
    # opportunities are counted after every hand, the last one included: before it every team had less than the
    # target, so a team's round points never pass target - 1 + per_hand (nor the most in a game). A larger fs_step
    # is not idle: it is how a designer turns Fight Song rounds off (scenarios/fightsong-targets.toml)
    no_rounds = rules["fs_step"] > min(rounds, target - 1 + per_hand)
    for s, seat in enumerate(seats):
        if n_players != 3:  # choose_battle: 3 players, one initiating player
            out.append((f"seats.{s}.battle", f"only a 3-player game has battles (this one has {n_players} players)"))
        elif no_rounds:
            out.append((f"seats.{s}.battle", f"with fs_step = {rules['fs_step']} no team's round points cross a "
                                             f"multiple of it before the game ends, so no Fight Song round starts"))
        if seat.policy == "team" and n_players == 3:
            # decide: a later play of its own team (a partner, or with 2 players its own second card) is weighed
            # by partner_weight; with 3 players every player is a team of one and plays once a board
            out.append((f"seats.{s}.partner_weight", "a 3-player game has no partners"))
    return out
