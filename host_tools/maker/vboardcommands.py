"""The virtual board's commands, typed at its `vboard>` prompt or given on the command line
from another terminal (`python -m host_tools vboard tap CARD`): the words as a control-channel
request, and the reply in words."""

from host_tools.maker.vboarddef import example_card

COMMANDS = ("tap", "place", "lift", "press", "status", "reset")  # from the terminal

PROMPT_HELP = """\
The virtual board's port is %(port)s: flash, cards and monitor use it as a Pico's.
  tap CARD          lay a card on the scanner and lift it (tap %(card)s; uid:HEX any tag)
  place CARD, lift  leave a card on the scanner, take it off
  press BUTTON [MS] press a button: next prev ok back done discard (press done 1500)
  status            boots, resets, what the board runs, the card on the scanner
  reset             a hard reset (the RUN pin); quit stops the board"""


def request_for(words):
    """A command (`tap ISLAND-1`, `press done 1500`, ...) as a control-channel request;
    ValueError says what is wrong."""
    head, args = words[0].lower(), words[1:]
    if head not in COMMANDS:
        raise ValueError("unknown command %r: %s" % (words[0], ", ".join(COMMANDS)))
    if head in ("tap", "place"):
        if len(args) != 1:
            raise ValueError("usage: %s CARD (a card, e.g. %s, or uid:HEX)"
                             % (head, example_card()))
        return {"cmd": head, "card": args[0]}
    if head == "press":
        if len(args) not in (1, 2):
            raise ValueError("usage: press BUTTON [MS]")
        req = {"cmd": "press", "button": args[0].lower()}
        if len(args) == 2:
            try:
                req["ms"] = int(args[1])
            except ValueError:
                raise ValueError("press %s: %r is not a whole number of ms"
                                 % (args[0], args[1])) from None
        return req
    if args:
        raise ValueError("usage: %s" % head)
    return {"cmd": "tag", "uid": None} if head == "lift" else {"cmd": head}


def describe_reply(req, reply):
    """A control-channel reply in words, for the terminal."""
    if not reply.get("ok"):
        return "refused: %s" % reply.get("error", "failed")
    cmd = req["cmd"]
    if cmd == "tap":
        return "%s tapped (tag %s)" % (req["card"], reply["uid"])
    if cmd == "place":
        return "%s on the scanner (tag %s); lift takes it off" % (req["card"], reply["uid"])
    if cmd == "tag":
        return "the scanner is empty"
    if cmd == "press":
        return "%s pressed (GP%d)" % (req["button"], reply["pin"])
    if cmd == "reset":
        return "hard reset"
    tag = reply.get("tag")
    broken = reply.get("broken_heaps", 0)
    return ("port %s, boot %d, %s, %d reset(s)%s%s, flash %s"
            % (reply["port"], reply["boots"], reply["phase"], len(reply["resets"]),
               ", %d heap(s) a Ctrl-C broke" % broken if broken else "",
               ", card on the scanner: %s" % tag["uid"] if tag else "", reply["dir"]))

