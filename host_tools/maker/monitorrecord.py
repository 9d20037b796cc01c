"""The monitor's `record`: the board's archived games (the link's `archive`) listed, and
one written to a file as a scenario (the game's `record` part: host_tools/games/kahuna/
record.py), fetched piece by piece over the link; or the game in play (`record FILE`,
the link's `moves`: its public records, from which the record is written with stand-ins
for the hidden cards). The game in play is archived when the next one starts.

`Recorder.command(words)` starts a request (its first link command), `Recorder.take(msg)`
is given every JSON line from the board first, and answers whether the line was its own
(an archive answer is not the game's news), with the next link command to send, if any.
"""

import base64

from host_tools import games as hostgames

USAGE = ("record lists the board's archived games; record SLOT FILE writes one as a "
         "scenario file; record FILE the game in play (what is public)")


class Recorder:
    def __init__(self, board, say, panel):
        self.board = board
        self.say = say  # say(text, style): the monitor's message line
        self.panel = panel  # panel(lines): the monitor's panel
        self.job = None  # None, {"list": [...]} or {"slot", "path", "data"}

    def command(self, words):
        """`record [SLOT FILE]` -> the link command to send, or None (said why)."""
        try:
            hostgames.part(self.board.game, "record")
        except hostgames.NoGame:
            self.say("%s writes no game record" % self.board.game, "bad")
            return None
        if not words:
            self.job = {"list": []}
            return {"cmd": "archive"}
        if len(words) == 1 and not words[0].isdigit():
            self.job = {"play": [], "path": words[0], "game": None}
            return {"cmd": "moves", "from": 0}
        if len(words) != 2 or not words[0].isdigit():
            self.say(USAGE, "bad")
            return None
        self.job = {"slot": int(words[0]), "path": words[1], "data": b""}
        return {"cmd": "archive", "slot": self.job["slot"], "offset": 0}

    def take(self, msg):
        """(the line was an answer to this recorder, the next link command or None)."""
        job = self.job
        if job is None:
            return False, None
        event = msg.get("event")
        if "error" in msg and event is None:
            self.job = None
            self.say("record: the board says: %s" % msg["error"], "bad")
            return True, None
        if "play" in job:
            if event != "moves":
                return False, None
            return True, self.take_moves(job, msg)
        if "list" in job:
            if event == "archived":
                job["list"].append(msg)
                return True, None
            if event == "archive":
                self.job = None
                self.panel(["Archived games (record SLOT FILE writes one):"] + [
                    "  slot %s: game %s, %s" % (g.get("slot"), g.get("game"),
                                                _settings(g.get("settings")))
                    for g in job["list"]] if job["list"] else ["No archived game on the "
                                                               "board yet."])
                return True, None
            return False, None
        if event != "archive-part" or msg.get("slot") != job["slot"]:
            return False, None
        try:
            piece = base64.b64decode(msg.get("data", ""), validate=True)
        except ValueError:
            self.job = None
            self.say("record: the board sent a damaged piece of slot %d" % job["slot"], "bad")
            return True, None
        job["data"] += piece
        if not msg.get("end") and piece:
            return True, {"cmd": "archive", "slot": job["slot"], "offset": len(job["data"])}
        self.job = None
        self.write(job)
        return True, None

    def take_moves(self, job, msg):
        """A piece of the game in play's public records: the next request, or the file."""
        moves = msg.get("moves")
        nxt = msg.get("next")
        if (not isinstance(moves, list) or type(nxt) is not int
                or (job["game"] is not None and msg.get("game") != job["game"])):
            self.job = None
            self.say("record: the game in play changed or its moves came damaged; "
                     "nothing written", "bad")
            return None
        job["game"] = msg.get("game")
        job["play"] += moves
        if not msg.get("end"):
            return {"cmd": "moves", "from": nxt}
        self.job = None
        self.write(job)
        return None

    def write(self, job):
        record = hostgames.part(self.board.game, "record")
        what = "the game in play" if "play" in job else "slot %d" % job.get("slot", 0)
        try:
            if "play" in job:
                text = record.from_records(self.board, job["play"])
            else:
                text = record.scenario(self.board, job["data"])
        except record.RecordError as e:
            self.say("record: %s: %s" % (what, e), "bad")
            return
        try:
            with open(job["path"], "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            self.say("record: cannot write %s: %s" % (job["path"], e.strerror or e), "bad")
            return
        self.say("record: %s written to %s (%d lines): python -m host_tools sim "
                 "--scenario %s replays it" % (what, job["path"], text.count("\n"),
                                               job["path"]), "good")


def _settings(s):
    if not isinstance(s, dict):
        return "settings unknown"
    h = s.get("handicap")
    return "%s variant, %s first, %s%s" % (
        s.get("variant", "standard"), s.get("first", "white"),
        "handicap %s:%s" % (h[0], h[1]) if h else "no handicap",
        ", the board played %s" % s["ai"] if s.get("ai") else "")
