"""Battle of the Bards: the settings that cannot change any game under the others (Game.idle), read off the
kernel (policies.py: split_decide, choose_decide, setup_decide, play_group). A seat's parameters serve only
its own decisions."""

VALUES = ("conclude_at", "hope", "meme_keep")  # the keep value `kv` of its tales
BASIC_LACKS = ("pawns", "courts", "excuse")  # card kinds (rules.CARD_KINDS) of the extended deck only


def idle(rules, seats, n_players):
    out = []
    for s, seat in enumerate(seats):
        p = seat.params
        random_split = seat.policy == "random"
        sets_up = s == 1 and p["setup"] == "greedy"  # only seat 1 sets up (setup_decide)
        if s == 0:
            out.append(("seats.0.setup", "seat 0 never sets up: seat 1 deals the setup cards"))
        if p["choose"] != "face_up_at_least" and seat.policy != "bait":
            out.append((f"seats.{s}.face_up_threshold",
                        f"only choose = \"face_up_at_least\" and the bait policy read it (policy "
                        f"{seat.policy}, choose = \"{p['choose']}\")"))
        if random_split and p["choose"] != "expected" and not sets_up:
            out.append((f"seats.{s}.spite", f"it splits at random and chooses by \"{p['choose']}\", and "
                                            f"{'seat 0 never sets up' if s == 0 else 'its setup is random'}: "
                                            f"no decision of it weighs the opponent's gain"))
        if p.get("avoid", "none") in BASIC_LACKS and rules["deck"] == "basic":
            out.append((f"seats.{s}.avoid", f"the basic deck has no {p['avoid']}: there is nothing to avoid"))
        if random_split and p["play"] == "random" and p["choose"] == "random" and not sets_up:
            for name in VALUES:
                out.append((f"seats.{s}.{name}", "it splits, chooses, plays and sets up at random: it never values "
                                                 "a tale"))
    return out
