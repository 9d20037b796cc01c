"""Helpers for the Halunken & Spelunken tests: given deals, names to indices, states."""

from games.halunken import deck, game, rules

ORDERED = [deck.crew_name(c) for c in range(deck.CREW)]
EXAMPLE1_PILES = [
    "RED-4,PURPLE-5,RED-1", "RED-2,RED-3,RED-5", "GREY-6,RED-6,RED-7",
    "RED-8,RED-9,PURPLE-1", "PURPLE-2,PURPLE-3,PURPLE-4", "YELLOW-2,GREY-8,YELLOW-11",
    "PURPLE-6,PURPLE-7,PURPLE-8", "PURPLE-9,PURPLE-10,GREY-1", "GREY-2,GREY-3,GREY-4",
    "GREY-5,GREY-7,GREY-9", "GREY-10,GREY-11,YELLOW-1", "YELLOW-3,YELLOW-4,YELLOW-5",
    "YELLOW-6,YELLOW-7,YELLOW-8", "YELLOW-9,YELLOW-10,YELLOW-12"]


def in_order_piles():
    return [ORDERED[3 * t:3 * t + 3] for t in range(14)]


def given(players=3, mode=None, piles=None, bj=None, **extra):
    s = {"players": players, "piles": piles or in_order_piles()}
    if mode:
        s["mode"] = mode
    if bj is not None:
        s["bj"] = bj
    elif (mode or ("tactical" if players == 2 else "standard")) == "standard":
        s["bj"] = ["BJ-%d" % k for k in range(1, 13)]
    elif players == 2:
        s["bj"] = ["P3-%d" % k for k in range(1, 8)] + ["P3-RUM"]
    s.update(extra)
    return game.new_state(None, s)


def c(name):
    return deck.crew_card(name)


def sp(name):
    return int(name[1:]) - 1


def m(word):
    return deck.move_card(word)


def names(cards):
    return sorted(deck.crew_name(x) for x in cards)


def report(state):
    return game.report(state)


BJ = rules.BJ
