"""Helpers for The Distance tests: stacked decks, encoding, and an independent referee that replays a
traced game by the rulebook (shared/rules/the-distance.txt and RULINGS.md), checking every event."""
import numpy as np

from analyzer.games.distance import GAME
from analyzer.games.distance.rules import LETTERS, load_deck

DECK = load_deck("default", None)
NAMES = DECK.card_names()
KIND_OF_ID = [k for k, c in enumerate(DECK.copies) for _ in range(c)]
LETTERS_OF_KIND = [set(LETTERS[i] for i in range(7) if m >> i & 1) for m in DECK.masks]
WILD = [m == 127 for m in DECK.masks]
KIND_INDEX = {name: k for k, name in enumerate(DECK.names)}


def stacked_order(hands, start, stock, players):
    """A deck order (ids, top first) that deals `hands` (kind names per seat, in dealing order), turns up
    `start` and leaves `stock` (kind names, top first) on top of the remaining cards."""
    free = {k: [i for i, kk in enumerate(KIND_OF_ID) if kk == k] for k in range(len(DECK.names))}

    def take(name):
        return free[KIND_INDEX[name]].pop(0)

    size = len(hands[0])
    order = [None] * (size * players)
    for s in range(players):
        for r, name in enumerate(hands[s]):
            order[r * players + s] = take(name)
    order.append(take(start))
    order += [take(name) for name in stock]
    used = set(order)
    order += [i for i in range(len(KIND_OF_ID)) if i not in used]
    return order


def write_deck(tmp_path, text):
    """A deck file of its own (the Musicards CSV header, then `text`'s rows) in tmp_path; its path."""
    f = tmp_path / "deck.csv"
    f.write_text("name,letters,copies\n" + text)
    return str(f)


def encoded(players=4, rules=None, seats=None, order=None):
    r = GAME.validate_rules(dict(rules or {}), players, "test")
    if order is not None:
        r["_stacked_order"] = order
    seats = seats or [{"policy": "greedy"}] * players
    return GAME.encode(r, [GAME.validate_seat(dict(s), "test", f"seat{i}") for i, s in enumerate(seats)]), r


def step_of(letter, k):
    return LETTERS[(LETTERS.index(letter) + k) % 7]


def legal_letters(cards, need):
    """The letters the rulebook lets these cards (ids) be played as when `need` is needed: one pitch class
    plus any wilds, called as the needed letter (any letter the cards give when `need` is "any")."""
    kinds = {KIND_OF_ID[c] for c in cards if not WILD[KIND_OF_ID[c]]}
    if not cards or len(kinds) > 1:
        return set()
    letters = set(LETTERS) if not kinds else set(LETTERS_OF_KIND[kinds.pop()])
    return letters if need == "any" else letters & {need}


def referee(events, out, rules, players):
    """Replay a traced game by the rules; raise AssertionError at the first event that breaks one."""
    n = players
    cols = GAME.columns(n)
    row = dict(zip(cols, out.tolist()))
    assert events[0]["type"] == "deck"
    deck = [c["id"] for c in events[0]["cards"]]
    assert sorted(deck) == list(range(len(KIND_OF_ID))), "the deck holds every card once"
    stock = list(deck)
    hands = {s: [] for s in range(n)}
    discard = []
    i = 1
    hand_size = rules["hand_size"]
    for s in range(n):
        ev = events[i]
        assert ev["type"] == "deal" and ev["seat"] == s
        assert [c["id"] for c in ev["cards"]] == [deck[r * n + s] for r in range(hand_size)], "dealt one at a time"
        hands[s] = [c["id"] for c in ev["cards"]]
        i += 1
    stock = stock[n * hand_size:]
    ev = events[i]
    assert ev["type"] == "interval"
    step = ev["step"]
    mode = rules["interval"]
    if mode == "random":
        assert ev["how"] == "random" and ev["interval"] in rules["random_intervals"]
    elif mode == "chooser":
        assert ev["how"] == "chosen" and ev["chooser"] == rules["chooser"]
    else:
        assert ev["how"] == "fixed" and ev["interval"] == ["seconds", "thirds", "fourths", "fifths", "sixths",
                                                           "sevenths"].index(mode) + 2
    assert row["interval"] == step + 1
    i += 1
    ev = events[i]
    assert ev["type"] == "start" and ev["card"]["id"] == stock[0], "the start card is the next card of the stock"
    start = stock.pop(0)
    discard.append(start)
    letters = LETTERS_OF_KIND[KIND_OF_ID[start]]
    i += 1
    if WILD[KIND_OF_ID[start]]:
        need = "any"
    elif len(letters) == 1:
        need = step_of(next(iter(letters)), step)
    else:
        sl = events[i]
        assert sl["type"] == "start_letter" and sl["seat"] == 0 and sl["letter"] in letters
        need = step_of(sl["letter"], step)
        i += 1
    assert ev["needed"] == need

    def conserved():
        assert sorted(stock + discard + [c for h in hands.values() for c in h]) == list(range(len(KIND_OF_ID))), \
            "every card is in the stock, the discard pile or a hand"

    def fits(card, letter):
        return letter == "any" or WILD[KIND_OF_ID[card]] or letter in LETTERS_OF_KIND[KIND_OF_ID[card]]

    def holds_play(seat, letter):
        return any(fits(c, letter) for c in hands[seat])

    def draw_one(seat, expected):
        assert stock, "a draw needs a card in the stock (a reshuffle comes first)"
        assert stock[0] == expected, "draws take the top of the stock"
        hands[seat].append(stock.pop(0))

    seat = 0
    turns = 0
    counts = dict(cards_drawn=0, penalty_cards=0, passes=0, reshuffles=0, wilds_used=0, plays=0, multi_plays=0,
                  misplays=0, forgotten_calls=0)
    dry = 0
    draw_limit = rules["draw_limit"]
    while True:
        ev = events[i]
        if ev["type"] == "end":
            break
        assert ev["type"] == "turn" and ev["seat"] == seat and ev["needed"] == need, (ev, seat, need)
        assert ev["hand_size"] == len(hands[seat])
        turns += 1
        assert ev["turn"] == turns
        i += 1
        could_play = holds_play(seat, need)
        drawn = 0
        acted = False
        pending_fit = None  # a drawn card that fits: it must be played next
        while True:
            ev = events[i]
            t = ev["type"]
            if t == "reshuffle":
                assert not stock and discard and ev["kept_on_top"]["id"] == discard[-1]
                new = [c["id"] for c in ev["stock"]]
                assert sorted(new) == sorted(discard[:-1]), "the discard pile but its top card becomes the stock"
                stock[:] = new
                discard[:] = discard[-1:]
                counts["reshuffles"] += 1
                i += 1
                continue
            if t == "play":
                cards = [c["id"] for c in ev["cards"]]
                assert cards and all(c in hands[seat] for c in cards)
                if pending_fit is not None:
                    assert cards == [pending_fit], "a drawn card that fits is played (alone: nothing else fitted)"
                else:
                    assert drawn == 0, "after drawing, only the drawn card can be played"
                assert ev["declared"] in legal_letters(cards, need), "one pitch class (plus wilds) giving the need"
                for c in cards:
                    hands[seat].remove(c)
                    discard.append(c)
                counts["plays"] += 1
                counts["multi_plays"] += len(cards) > 1
                counts["wilds_used"] += sum(WILD[KIND_OF_ID[c]] for c in cards)
                need = step_of(ev["declared"], step)
                assert ev["needed_next"] == need
                acted = True
                i += 1
                if len(hands[seat]) == 1 and events[i]["type"] == "penalty":
                    pen = events[i]
                    assert pen["kind"] == "forgot_call" and pen["seat"] == seat
                    counts["forgotten_calls"] += 1
                    i = penalty_draws(events, i + 1, seat, stock, discard, hands, counts, draw_one)
                break
            if t == "penalty":
                assert ev["kind"] == "misplay" and ev["seat"] == seat
                meant = [c["id"] for c in ev["intended_cards"]]
                assert all(c in hands[seat] for c in meant) and ev["intended_letter"] in legal_letters(meant, need)
                if pending_fit is not None:
                    assert meant == [pending_fit], "the play meant after drawing is the drawn card"
                else:
                    assert could_play and drawn == 0, "a misplay is an attempted play"
                # what the table saw: cards from her hand and the letter said, which rule 5 calls a misplay
                # (a wrong card or a wrong letter; None: no letter said); they go back to her hand, so the
                # hand, the discard pile and the need stay as they were (checked at the next turns)
                put_down = [c["id"] for c in ev["cards_taken_back"]]
                assert put_down and all(c in hands[seat] for c in put_down), "the cards put down come from her hand"
                assert ev["letter"] not in legal_letters(put_down, need), "a misplay is not a legal play"
                counts["misplays"] += 1
                acted = True
                i = penalty_draws(events, i + 1, seat, stock, discard, hands, counts, draw_one)
                break
            if t == "draw":
                assert not ev["penalty"] and ev["seat"] == seat
                assert not could_play, "a player holding a playable card must play, not draw"
                assert pending_fit is None
                assert draw_limit == 0 or drawn < draw_limit
                draw_one(seat, ev["card"]["id"])
                drawn += 1
                counts["cards_drawn"] += 1
                acted = True
                assert ev["fits"] == fits(ev["card"]["id"], need)
                if ev["fits"]:
                    pending_fit = ev["card"]["id"]
                i += 1
                continue
            if t == "pass":
                assert not could_play and pending_fit is None and ev["drew"] == drawn and ev["needed"] == need
                if draw_limit and drawn < draw_limit or draw_limit == 0:
                    assert not stock and len(discard) <= 1, "a pass before the draw limit only when nothing is left"
                counts["passes"] += 1
                i += 1
                break
            raise AssertionError(f"unexpected event in a turn: {ev}")
        conserved()
        if not hands[seat]:
            break
        dry = 0 if acted else dry + 1
        if dry >= n:
            break
        seat = (seat + 1) % n
    end = events[i]
    assert end["type"] == "end" and end["turns"] == turns == row["length"]
    assert end["cards_left"] == [len(hands[s]) for s in range(n)] == [row[f"cards_left_{s}"] for s in range(n)]
    if end["winner"] is not None:
        assert not hands[end["winner"]] and end["end"] == "won"
        assert row[f"win_{end['winner']}"] == 1 and row["n_winners"] == 1 and row["end"] == 0
    else:
        assert row["n_winners"] == 0 and all(row[f"win_{s}"] == 0 for s in range(n))
        if end["end"].startswith("stall: a full round"):
            assert dry >= n and not stock and len(discard) <= 1 and row["end"] == 1
        else:
            assert turns == rules["turn_cap"] and row["end"] == 2
    for key, value in counts.items():
        assert row[key] == value, key
    assert i == len(events) - 1
    return events


def penalty_draws(events, i, seat, stock, discard, hands, counts, draw_one):
    """Up to two penalty draws (after reshuffles if the stock is empty); returns the next event index."""
    got = 0
    while got < 2 and i < len(events):
        ev = events[i]
        if ev["type"] == "reshuffle":
            assert not stock and ev["kept_on_top"]["id"] == discard[-1]
            new = [c["id"] for c in ev["stock"]]
            assert sorted(new) == sorted(discard[:-1])
            stock[:] = new
            discard[:] = discard[-1:]
            counts["reshuffles"] += 1
            i += 1
            continue
        if ev["type"] == "draw" and ev["penalty"]:
            assert ev["seat"] == seat
            draw_one(seat, ev["card"]["id"])
            counts["penalty_cards"] += 1
            got += 1
            i += 1
            continue
        break
    if got < 2:
        assert not stock and len(discard) <= 1, "fewer than two penalty cards only when nothing is left"
    return i


def play(enc, seed=1, game=0):
    from analyzer.games.distance.trace import play_traced

    return play_traced(enc, seed, game)


def as_array(order):
    return np.asarray(order, dtype=np.int64)
